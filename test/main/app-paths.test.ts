import { describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../src/main/app-paths';

vi.mock('electron', () => ({}));

describe('app paths', () => {
  it('finds preload and renderer beside the bundled main, icons in the project in development', () => {
    expect(appPaths({ mainUrl: 'file:///repo/out/main/index.js', packaged: false, appPath: '/repo', resourcesPath: '/electron/resources' })).toEqual({
      preload: '/repo/out/preload/index.cjs',
      renderer: '/repo/out/renderer/',
      icons: '/repo/resources/icons',
    });
  });

  it('finds icons beside the asar archive in a packaged app', () => {
    const paths = appPaths({ mainUrl: 'file:///opt/Renderdrop/resources/app.asar/out/main/index.js', packaged: true, appPath: '/opt/Renderdrop/resources/app.asar', resourcesPath: '/opt/Renderdrop/resources' });
    expect(paths.preload).toBe('/opt/Renderdrop/resources/app.asar/out/preload/index.cjs');
    expect(paths.icons).toBe('/opt/Renderdrop/resources/resources/icons');
  });
});
