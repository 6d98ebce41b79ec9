import packageJson from '../../package.json' with { type: 'json' };

/** Version of Renderdrop, from package.json. */
export const RENDERDROP_VERSION: string = packageJson.version;

/** The User-Agent every request to a server carries. */
export const USER_AGENT = `renderdrop/${RENDERDROP_VERSION}`;
