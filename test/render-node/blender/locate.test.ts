import { describe, expect, it } from 'vitest';
import { BlenderPathError, candidatePaths, findBlender, type LocateFileSystem } from '../../../src/render-node/blender/locate';

function fakeFs(files: string[], dirs: Record<string, string[]> = {}): LocateFileSystem {
  return {
    listDir: (dir) => dirs[dir] ?? [],
    isDirectory: (p) => p in dirs,
    isExecutable: (p) => files.includes(p),
  };
}

describe('candidatePaths', () => {
  it('lists explicit, BLENDER_PATH, PATH, then Linux install folders with /opt versions newest first', () => {
    const paths = candidatePaths(
      'linux',
      { BLENDER_PATH: '/custom/blender', PATH: '/usr/local/sbin:/home/me/bin:', HOME: '/home/me' },
      { explicit: '/given/blender', listDir: (dir) => (dir === '/opt' ? ['blender-3.6.5', 'other', 'blender-4.2.0', 'blender-3.10.0'] : []) },
    );
    expect(paths.map((c) => c.path)).toEqual([
      '/given/blender',
      '/custom/blender',
      '/usr/local/sbin/blender',
      '/home/me/bin/blender',
      '/usr/bin/blender',
      '/usr/local/bin/blender',
      '/snap/bin/blender',
      '/opt/blender-4.2.0/blender',
      '/opt/blender-3.10.0/blender',
      '/opt/blender-3.6.5/blender',
      '/var/lib/flatpak/exports/bin/org.blender.Blender',
      '/home/me/.local/share/flatpak/exports/bin/org.blender.Blender',
      '/home/me/.steam/steam/steamapps/common/Blender/blender',
      '/home/me/.local/share/Steam/steamapps/common/Blender/blender',
    ]);
    expect(paths[0]).toEqual({ path: '/given/blender', source: 'explicit' });
    expect(paths[1]!.source).toBe('BLENDER_PATH');
    expect(paths[2]!.source).toBe('PATH');
  });

  it('does not repeat a path found twice', () => {
    const paths = candidatePaths('linux', { PATH: '/usr/bin:/usr/bin' }).map((c) => c.path);
    expect(paths.filter((p) => p === '/usr/bin/blender')).toHaveLength(1);
    expect(paths[0]).toBe('/usr/bin/blender');
  });

  it('uses Windows paths, a case-insensitive Path variable and Blender Foundation versions newest first', () => {
    const foundation = 'C:\\Program Files\\Blender Foundation';
    const paths = candidatePaths(
      'win32',
      { Path: 'C:\\Tools;"C:\\Quoted Dir";', ProgramFiles: 'C:\\Program Files', USERPROFILE: 'C:\\Users\\me' },
      { listDir: (dir) => (dir === foundation ? ['Blender 3.6', 'Blender 4.1', 'Blender 4.0', 'Readme.txt'] : []) },
    );
    expect(paths.map((c) => c.path)).toEqual([
      'C:\\Tools\\blender.exe',
      'C:\\Quoted Dir\\blender.exe',
      `${foundation}\\Blender 4.1\\blender.exe`,
      `${foundation}\\Blender 4.0\\blender.exe`,
      `${foundation}\\Blender 3.6\\blender.exe`,
      'C:\\Program Files\\Steam\\steamapps\\common\\Blender\\blender.exe',
      'C:\\Program Files (x86)\\Steam\\steamapps\\common\\Blender\\blender.exe',
    ]);
    expect(paths.find((c) => c.path.includes('Steam'))!.source).toBe('steam');
  });

  it('knows the macOS app bundles', () => {
    const paths = candidatePaths('darwin', { PATH: '/opt/homebrew/bin', HOME: '/Users/me' }).map((c) => c.path);
    expect(paths).toEqual([
      '/opt/homebrew/bin/blender',
      '/Applications/Blender.app/Contents/MacOS/Blender',
      '/Users/me/Applications/Blender.app/Contents/MacOS/Blender',
      '/Users/me/Library/Application Support/Steam/steamapps/common/Blender/Blender.app/Contents/MacOS/Blender',
    ]);
  });
});

describe('findBlender', () => {
  it('returns the first executable candidate and what it searched until then', () => {
    const result = findBlender({ env: { PATH: '/a:/b' }, platform: 'linux', fs: fakeFs(['/b/blender', '/usr/bin/blender']) });
    expect(result).toEqual({ path: '/b/blender', source: 'PATH', searched: ['/a/blender', '/b/blender'] });
  });

  it('returns null with every place it looked when there is no Blender', () => {
    const result = findBlender({ env: { PATH: '/a', HOME: '/h' }, platform: 'linux', fs: fakeFs([]) });
    expect(result.path).toBeNull();
    expect(result.source).toBeNull();
    expect(result.searched).toContain('/a/blender');
    expect(result.searched).toContain('/snap/bin/blender');
  });

  it('treats a missing explicit path as an error, not a reason to look elsewhere', () => {
    const fs = fakeFs(['/usr/bin/blender']);
    expect(() => findBlender({ explicit: '/nope/blender', env: {}, platform: 'linux', fs })).toThrow(BlenderPathError);
    expect(() => findBlender({ explicit: '/nope/blender', env: {}, platform: 'linux', fs })).toThrow(/\/nope\/blender/);
  });

  it('accepts an install folder as the explicit path or BLENDER_PATH', () => {
    const fs = fakeFs(['/opt/b4/blender', '/Apps/Blender.app/Contents/MacOS/Blender'], { '/opt/b4': [], '/Apps/Blender.app': [] });
    expect(findBlender({ explicit: '/opt/b4', env: {}, platform: 'linux', fs })).toMatchObject({ path: '/opt/b4/blender', source: 'explicit' });
    expect(findBlender({ env: { BLENDER_PATH: '/Apps/Blender.app' }, platform: 'darwin', fs })).toMatchObject({
      path: '/Apps/Blender.app/Contents/MacOS/Blender',
      source: 'BLENDER_PATH',
    });
  });

  it('moves past a BLENDER_PATH that is not there', () => {
    const result = findBlender({ env: { BLENDER_PATH: '/gone/blender' }, platform: 'linux', fs: fakeFs(['/usr/bin/blender']) });
    expect(result).toMatchObject({ path: '/usr/bin/blender', source: 'system' });
    expect(result.searched[0]).toBe('/gone/blender');
  });
});
