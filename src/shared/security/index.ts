/** What other layers use of shared/security: the room's public surface. */
export { blenderEnvironment, withoutSecrets } from './child-env';
export { contentSecurityPolicy } from './content-security-policy';
export { RENDERER_ASSET_TYPES } from './renderer-asset-types';
export { PAGE_SECRET_HEADER, PAGE_SECRET_META } from './browser-session';
