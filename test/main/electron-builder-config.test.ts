import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config from '../../electron-builder';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const builderRequire = createRequire(createRequire(import.meta.url).resolve('electron-builder/package.json'));

describe('electron-builder configuration', () => {
  it("passes electron-builder's own schema", async () => {
    const { validateConfiguration } = builderRequire('app-builder-lib/out/util/config/config') as { validateConfiguration: (c: unknown, l: unknown) => Promise<void> };
    const { DebugLogger } = builderRequire('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('builds NSIS for Windows, a hardened dmg for macOS, AppImage and deb for Linux', () => {
    expect(config.win?.target).toEqual([{ target: 'nsis', arch: ['x64'] }]);
    expect(config.mac).toMatchObject({ target: [{ target: 'dmg', arch: ['arm64', 'x64'] }], hardenedRuntime: true });
    expect(config.mac).not.toHaveProperty('notarize');
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
  });

  it('offers .blend as another handler, never taking the default from Blender', () => {
    const exts = (list: unknown) => (list === undefined ? [] : Array.isArray(list) ? list : [list]).map((a: { ext: string }) => a.ext);
    expect(exts(config.fileAssociations)).toEqual([]);
    expect(exts(config.mac?.fileAssociations)).toEqual(['blend', 'zip']);
    expect(exts(config.linux?.fileAssociations)).toEqual(['blend']);
    const include = config.nsis?.include as string;
    expect(existsSync(`${ROOT}${include}`)).toBe(true);
    const script = readFileSync(`${ROOT}${include}`, 'utf8');
    expect(script).toContain('Software\\Classes\\.blend\\OpenWithProgids');
    expect(script).not.toMatch(/WriteRegStr SHELL_CONTEXT "Software\\Classes\\\.blend" ""/);
  });

  it('points at icons, scripts and build outputs that exist where they should', () => {
    expect(existsSync(`${ROOT}${config.icon}`)).toBe(true);
    expect(existsSync(`${ROOT}resources/icons/512x512.png`)).toBe(true);
    for (const look of ['idle', 'active', 'error']) {
      expect(existsSync(`${ROOT}resources/icons/tray-${look}.png`)).toBe(true);
      expect(existsSync(`${ROOT}resources/icons/tray-${look}@2x.png`)).toBe(true);
    }
    const extra = config.extraResources as { from: string; to: string }[];
    expect(extra.map((e) => [e.from, e.to])).toEqual([
      ['resources/blender', 'resources/blender'],
      ['addon/renderdrop_blender', 'addon/renderdrop_blender'],
      ['resources/icons', 'resources/icons'],
    ]);
    expect(config.files).toEqual(expect.arrayContaining(['out/main/**', 'out/preload/**', 'out/renderer/**']));
  });
});
