/** What other layers use of render-node/http: the room's public surface. */
export { parseRateLimit } from './rate-limit';
export { signedQuery } from './request-schemas';
export { serveFile } from './serve-file';
export { type SignedQuery, UrlSigner } from './signing';
export { type ZodTypeProvider, zodValidatorCompiler } from './zod-route';
