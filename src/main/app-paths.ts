import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the built parts and resources are, in development and in a packaged app. */
export interface AppPaths {
  /** The sandboxed preload (CommonJS). */
  preload: string;
  /** The built renderer (index.html and assets). */
  renderer: string;
  /** Tray and window icons. */
  icons: string;
}

/**
 * Paths next to the bundled main (`out/main/index.js`): `out/preload`, `out/renderer`; icons in
 * `resources/icons` of the project, or of the packaged app's resources folder (electron-builder's
 * `extraResources`, outside the asar archive).
 */
export function appPaths(options: { mainUrl: string; packaged: boolean; appPath: string; resourcesPath: string }): AppPaths {
  const at = (relative: string) => fileURLToPath(new URL(relative, options.mainUrl));
  const resources = options.packaged ? join(options.resourcesPath, 'resources') : join(options.appPath, 'resources');
  return {
    preload: at('../preload/index.cjs'),
    renderer: at('../renderer/'),
    icons: join(resources, 'icons'),
  };
}
