import { describe, expect, it } from 'vitest';
import { BundleLayout } from '../../../src/blend/pack/bundle-layout';
import { framePattern, storedPathTarget, udimFileNames } from '../../../src/blend/trace/stored-path';

describe('storedPathTarget', () => {
  it('resolves // paths from the folder of the .blend that stores them, also //../', () => {
    expect(storedPathTarget('//tex/a.png', '/p/shot', 'posix')).toEqual({ kind: 'path', candidates: ['/p/shot/tex/a.png'] });
    expect(storedPathTarget('//../shared/a.png', '/p/shot', 'posix')).toEqual({ kind: 'path', candidates: ['/p/shared/a.png'] });
    expect(storedPathTarget('//', '/p/shot', 'posix')).toEqual({ kind: 'path', candidates: ['/p/shot'] });
  });

  it('tries a path saved on Windows with backslashes as written, then with them as separators', () => {
    expect(storedPathTarget('//tex\\a.png', '/p', 'posix')).toEqual({ kind: 'path', candidates: ['/p/tex\\a.png', '/p/tex/a.png'] });
  });

  it('keeps absolute POSIX paths, and says Windows drive and UNC paths belong to another system', () => {
    expect(storedPathTarget('/abs/x/../a.png', '/p', 'posix')).toEqual({ kind: 'path', candidates: ['/abs/a.png'] });
    expect(storedPathTarget('C:\\tex\\a.png', '/p', 'posix')).toEqual({ kind: 'other-system' });
    expect(storedPathTarget('c:/tex/a.png', '/p', 'posix')).toEqual({ kind: 'other-system' });
    expect(storedPathTarget('\\\\server\\share\\a.png', '/p', 'posix')).toEqual({ kind: 'other-system' });
    expect(storedPathTarget('', '/p', 'posix')).toEqual({ kind: 'empty' });
  });

  it('on Windows, resolves drive, UNC, // and rooted paths', () => {
    expect(storedPathTarget('//tex/a.png', 'D:\\proj', 'win32')).toEqual({ kind: 'path', candidates: ['D:\\proj\\tex\\a.png'] });
    expect(storedPathTarget('C:\\tex\\a.png', 'D:\\proj', 'win32')).toEqual({ kind: 'path', candidates: ['C:\\tex\\a.png'] });
    expect(storedPathTarget('\\\\server\\share\\a.png', 'D:\\proj', 'win32')).toEqual({ kind: 'path', candidates: ['\\\\server\\share\\a.png'] });
    expect(storedPathTarget('/tex/a.png', 'D:\\proj', 'win32')).toEqual({ kind: 'path', candidates: ['D:\\tex\\a.png'] });
  });
});

describe('frame patterns and UDIM tiles', () => {
  it('matches every frame of a numbered name (digits, or # placeholders)', () => {
    const digits = framePattern('frame_0001.png', 'digits')!;
    expect(['frame_0001.png', 'frame_0123.png', 'frame_12345.png'].every((n) => digits.test(n))).toBe(true);
    expect(['frame_01.png', 'frame_0001.exr', 'xframe_0001.png'].some((n) => digits.test(n))).toBe(false);
    const hashes = framePattern('cache_###.vdb', 'hash')!;
    expect(hashes.test('cache_007.vdb') && !hashes.test('cache_07.vdb')).toBe(true);
    expect(framePattern('plain.png', 'digits')).toBeNull();
  });

  it('names each UDIM tile', () => {
    expect(udimFileNames('t.<UDIM>.png', [1001, 1012])).toEqual(['t.1001.png', 't.1012.png']);
    expect(udimFileNames('t.<UVTILE>.png', [1001, 1012])).toEqual(['t.u1_v1.png', 't.u2_v2.png']);
    expect(udimFileNames('t.1001.png', [1001, 1002])).toEqual(['t.1001.png', 't.1002.png']);
  });
});

describe('BundleLayout', () => {
  it('keeps files of the scene folder in place, moves top-level .blend files into a folder, mirrors outside paths', () => {
    const layout = new BundleLayout('/p/shot.blend', ['/p/tex/a.png', '/p/lib.blend'], 'posix');
    expect(layout.entryOf('/p/shot.blend')).toBe('shot.blend');
    expect(layout.entryOf('/p/tex/a.png')).toBe('tex/a.png');
    expect(layout.entryOf('/p/lib.blend')).toBe('_libraries/lib.blend');
    expect(layout.entryOf('/p/libs/lib.blend')).toBe('libs/lib.blend');
    expect(layout.entryOf('/home/ana/hdri/sky.exr')).toBe('_external/home/ana/hdri/sky.exr');
    expect(layout.folderOf('/p')).toBe('');
    expect(layout.folderOf('/srv/x')).toBe('_external/srv/x');
  });

  it('maps Windows drives and UNC shares', () => {
    const layout = new BundleLayout('D:\\proj\\shot.blend', [], 'win32');
    expect(layout.entryOf('D:\\proj\\tex\\a.png')).toBe('tex/a.png');
    expect(layout.entryOf('c:\\tex\\a.png')).toBe('_external/C/tex/a.png');
    expect(layout.entryOf('\\\\server\\share\\tex\\a.png')).toBe('_external/UNC/server/share/tex/a.png');
  });

  it('avoids the names of folders the scene already uses', () => {
    const layout = new BundleLayout('/p/shot.blend', ['/p/_External/x.png', '/p/_libraries/y.png'], 'posix');
    expect(layout.externalFolder).toBe('_external-2');
    expect(layout.librariesFolder).toBe('_libraries-2');
  });
});
