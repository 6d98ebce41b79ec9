import { describe, expect, it } from 'vitest';
import { blenderPlaces } from '../../../src/core/addon/blender-candidates';
import { addonSupports, parseBlenderVersion } from '../../../src/core/addon/blender-version';
import { userAddonsDir } from '../../../src/core/addon/user-addons-dir';
import { addonSourceDir, addonVersionOf } from '../../../src/core/addon/addon-source';

describe('Blender versions', () => {
  it('reads the version `blender --version` prints, with or without a patch number or suffix', () => {
    expect(parseBlenderVersion('Blender 3.4.1\n\tbuild date: 2023-01-23\n')).toEqual({ version: '3.4.1', series: '3.4' });
    expect(parseBlenderVersion('Read prefs\nBlender 4.2.0 LTS\n')).toEqual({ version: '4.2.0', series: '4.2' });
    expect(parseBlenderVersion('Blender 2.93\n')).toEqual({ version: '2.93', series: '2.93' });
    expect(parseBlenderVersion('bash: blender: not found')).toBeNull();
  });

  it('supports Blender 3.3 and newer', () => {
    expect(['3.3', '3.6', '4.0', '4.2', '10.1'].map(addonSupports)).toEqual([true, true, true, true, true]);
    expect(['2.93', '3.2', '3.0'].map(addonSupports)).toEqual([false, false, false]);
  });

  it('finds the shipped add-on in the repository, in the built CLI and in a packaged app\'s resources', () => {
    const at = (...files: string[]) => (path: string) => files.includes(path);
    expect(addonSourceDir('file:///repo/src/core/addon/addon-source.ts', at('/repo/addon/renderdrop_blender/__init__.py'))).toBe('/repo/addon/renderdrop_blender');
    expect(addonSourceDir('file:///repo/out/cli/chunks/addon-1234.js', at('/repo/addon/renderdrop_blender/__init__.py'))).toBe('/repo/addon/renderdrop_blender');
    const packaged = at('/opt/Renderdrop/resources/addon/renderdrop_blender/__init__.py');
    expect(addonSourceDir('file:///opt/Renderdrop/resources/app.asar/out/main/index.js', packaged)).toBe('/opt/Renderdrop/resources/addon/renderdrop_blender');
    expect(() => addonSourceDir('file:///elsewhere/x.js', at())).toThrow(/add-on \(addon\/renderdrop_blender\) was not found/);
  });

  it('reads the add-on version from bl_info', () => {
    expect(addonVersionOf('bl_info = {\n    "name": "x",\n    "version": (1, 12, 0),\n}')).toBe('1.12.0');
    expect(addonVersionOf('no info')).toBe('0');
  });
});

describe('where Blenders are', () => {
  const listDir = (dir: string) =>
    ({ '/opt': ['blender-3.6.2-linux-x64', 'blender-4.2.0-linux-x64', 'other'], 'C:\\Program Files\\Blender Foundation': ['Blender 3.6', 'Blender 4.2'] })[dir] ?? [];

  it('looks at the configured Blender, PATH, /opt (newest first), the system and Steam on Linux, each once', () => {
    const places = blenderPlaces({ platform: 'linux', env: { PATH: '/usr/bin:/home/a/bin', HOME: '/home/a' }, configured: ['/studio/blender'], listDir });
    expect(places[0]).toEqual({ path: '/studio/blender', origin: 'configured' });
    expect(places.slice(1, 3)).toEqual([
      { path: '/usr/bin/blender', origin: 'PATH' },
      { path: '/home/a/bin/blender', origin: 'PATH' },
    ]);
    const paths = places.map((p) => p.path);
    expect(paths.filter((p) => p === '/usr/bin/blender')).toHaveLength(1);
    expect(paths.indexOf('/opt/blender-4.2.0-linux-x64/blender')).toBeLessThan(paths.indexOf('/opt/blender-3.6.2-linux-x64/blender'));
    expect(places).toContainEqual({ path: '/home/a/.steam/steam/steamapps/common/Blender/blender', origin: 'steam' });
  });

  it('looks in Program Files (newest first) and Steam on Windows', () => {
    const places = blenderPlaces({ platform: 'win32', env: { Path: 'C:\\tools', ProgramFiles: 'C:\\Program Files', 'ProgramFiles(x86)': 'C:\\Program Files (x86)' }, listDir });
    expect(places.map((p) => p.path)).toEqual([
      'C:\\tools\\blender.exe',
      'C:\\Program Files\\Blender Foundation\\Blender 4.2\\blender.exe',
      'C:\\Program Files\\Blender Foundation\\Blender 3.6\\blender.exe',
      'C:\\Program Files\\Steam\\steamapps\\common\\Blender\\blender.exe',
      'C:\\Program Files (x86)\\Steam\\steamapps\\common\\Blender\\blender.exe',
    ]);
  });

  it('looks in Applications and Steam on macOS', () => {
    const places = blenderPlaces({ platform: 'darwin', env: { HOME: '/Users/a', PATH: '' }, listDir: () => [] }).map((p) => p.path);
    expect(places).toContain('/Applications/Blender.app/Contents/MacOS/Blender');
    expect(places).toContain('/Users/a/Library/Application Support/Steam/steamapps/common/Blender/Blender.app/Contents/MacOS/Blender');
  });
});

describe('user add-on folders', () => {
  it('is BLENDER_USER_SCRIPTS/addons when that is set', () => {
    expect(userAddonsDir('3.4', { platform: 'linux', env: { BLENDER_USER_SCRIPTS: '/tmp/scripts' }, home: '/home/a' })).toBe('/tmp/scripts/addons');
  });

  it('is the version\'s user folder on each system', () => {
    expect(userAddonsDir('3.4', { platform: 'linux', env: {}, home: '/home/a' })).toBe('/home/a/.config/blender/3.4/scripts/addons');
    expect(userAddonsDir('4.2', { platform: 'linux', env: { XDG_CONFIG_HOME: '/x' }, home: '/home/a' })).toBe('/x/blender/4.2/scripts/addons');
    expect(userAddonsDir('4.2', { platform: 'darwin', env: {}, home: '/Users/a' })).toBe('/Users/a/Library/Application Support/Blender/4.2/scripts/addons');
    expect(userAddonsDir('4.2', { platform: 'win32', env: { APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, home: 'C:\\Users\\a' })).toBe(
      'C:\\Users\\a\\AppData\\Roaming\\Blender Foundation\\Blender\\4.2\\scripts\\addons',
    );
  });
});
