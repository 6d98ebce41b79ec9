import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PreflightError } from '../../../src/core/errors';
import { preflight } from '../../../src/core/upload/preflight';
import { unsafePathReason } from '../../../src/core/upload/unsafe-entry-name';
import { blendBytes, gzipBlendBytes, tempDir, writeScene, zipBytes, zstdBlendBytes } from '../../helpers/scene-files';
import { zipBytes as unixZipBytes } from '../../helpers/zip-bytes';

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
});

async function failure(path: string, maxBytes?: number): Promise<PreflightError> {
  const error = await preflight(path, maxBytes === undefined ? {} : { maxBytes }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PreflightError);
  return error as PreflightError;
}

describe('preflight accepts', () => {
  it('a plain .blend, with any case of extension', async () => {
    const result = await preflight(await writeScene(dir, 'Shot.BLEND', blendBytes()));
    expect(result).toMatchObject({ fileType: 'blend', format: 'blend', size: 4096, fileName: 'Shot.BLEND', blendEntries: [] });
  });
  it('a gzip-compressed .blend', async () => {
    expect((await preflight(await writeScene(dir, 'gz.blend', gzipBlendBytes()))).format).toBe('blend-gzip');
  });
  it('a zstd-compressed .blend', async () => {
    expect((await preflight(await writeScene(dir, 'zs.blend', zstdBlendBytes()))).format).toBe('blend-zstd');
  });
  it('a zip of regular files and folders with unix modes', async () => {
    const path = await writeScene(dir, 'unix.zip', unixZipBytes([{ name: 'proj/', unixMode: 0o40755 }, { name: 'proj/scene.blend', data: blendBytes(64), unixMode: 0o100755 }]));
    expect((await preflight(path)).blendEntries).toEqual(['proj/scene.blend']);
  });
  it('a zip with a .blend inside a folder, listing it', async () => {
    const path = await writeScene(dir, 'pack.ZIP', zipBytes([{ name: 'proj/' }, { name: 'proj/scene.blend', data: blendBytes(64) }, { name: 'proj/tex/wood.png' }]));
    const result = await preflight(path);
    expect(result).toMatchObject({ fileType: 'zip', format: 'zip', blendEntries: ['proj/scene.blend'] });
  });
  it('a zip with backslash separators (PowerShell 5.1 Compress-Archive), listing its scene with slashes', async () => {
    const path = await writeScene(dir, 'powershell.zip', unixZipBytes([{ name: 'shot\\scene.blend', data: blendBytes(64), utf8Flag: false }, { name: 'shot\\tex\\wood.png', data: 'png', utf8Flag: false }]));
    expect((await preflight(path)).blendEntries).toEqual(['shot/scene.blend']);
  });
  it('a zip whose UTF-8 names lack the UTF-8 flag (Info-ZIP), reading them as UTF-8', async () => {
    const path = await writeScene(dir, 'infozip.zip', unixZipBytes([{ name: 'Szene Ü 木.blend', data: blendBytes(64), utf8Flag: false }]));
    expect((await preflight(path)).blendEntries).toEqual(['Szene Ü 木.blend']);
  });
  it('a Finder zip, leaving out its __MACOSX copies', async () => {
    const path = await writeScene(dir, 'finder.zip', unixZipBytes([{ name: 'shot/scene.blend', data: blendBytes(64) }, { name: '__MACOSX/shot/._scene.blend', data: 'fork' }]));
    expect((await preflight(path)).blendEntries).toEqual(['shot/scene.blend']);
  });
});

describe('preflight refuses', () => {
  it('a missing file', async () => expect((await failure(join(dir, 'nope.blend'))).code).toBe('not-found'));
  it('a folder', async () => {
    await mkdir(join(dir, 'folder.blend'), { recursive: true });
    expect((await failure(join(dir, 'folder.blend'))).code).toBe('not-a-file');
  });
  it('another extension', async () => {
    const error = await failure(await writeScene(dir, 'scene.blend1', blendBytes()));
    expect(error.code).toBe('bad-extension');
    expect(error.message).toContain('.blend or .zip');
  });
  it('an empty file', async () => expect((await failure(await writeScene(dir, 'empty.blend', Buffer.alloc(0)))).code).toBe('empty'));
  it('a file at or above the limit', async () => {
    const error = await failure(await writeScene(dir, 'big.blend', blendBytes(2048)), 2048);
    expect(error.code).toBe('too-large');
  });
  it('a .blend that is not a Blender file', async () => {
    expect((await failure(await writeScene(dir, 'fake.blend', Buffer.from('hello world, not blender')))).code).toBe('not-blender');
  });
  it('a gzip whose content is not Blender', async () => {
    const { gzipSync } = await import('node:zlib');
    expect((await failure(await writeScene(dir, 'gzfake.blend', gzipSync(Buffer.alloc(5000, 65))))).code).toBe('not-blender');
  });
  it('a .zip that is not a zip', async () => expect((await failure(await writeScene(dir, 'fake.zip', blendBytes()))).code).toBe('not-zip'));
  it('an empty zip', async () => expect((await failure(await writeScene(dir, 'empty.zip', zipBytes([])))).code).toBe('zip-empty'));
  it('a zip without a .blend', async () => {
    const path = await writeScene(dir, 'tex.zip', zipBytes([{ name: 'a.png' }, { name: '__MACOSX/._scene.blend' }]));
    expect((await failure(path)).code).toBe('zip-no-blend');
  });
  it('a damaged zip', async () => {
    const bytes = zipBytes([{ name: 'scene.blend' }]);
    expect((await failure(await writeScene(dir, 'broken.zip', bytes.subarray(0, bytes.length - 10)))).code).toBe('zip-corrupt');
  });
  for (const name of ['../escape.blend', '/etc/scene.blend', 'C:/scene.blend', 'a\\..\\..\\b.blend', 'ok/../../x.blend', '\\\\server\\share\\x.blend']) {
    it(`a zip with the entry ${name}`, async () => {
      const path = await writeScene(dir, `evil-${Math.random().toString(36).slice(2)}.zip`, zipBytes([{ name: 'scene.blend' }, { name }]));
      const error = await failure(path);
      expect(error.code).toBe('zip-unsafe-entry');
      expect(error.message).toContain(name);
    });
  }
  it('a zip holding a symbolic link, even one with a harmless name', async () => {
    const path = await writeScene(dir, 'linked.zip', unixZipBytes([{ name: 'scene.blend', data: blendBytes(64), unixMode: 0o100644 }, { name: 'tex/wood.png', data: '/etc/passwd', unixMode: 0o120777 }]));
    const error = await failure(path);
    expect(error.code).toBe('zip-symlink');
    expect(error.message).toContain('tex/wood.png');
    expect(error.message).toMatch(/symbolic link/);
  });
  it('an unreadable file', async () => {
    if (process.getuid?.() === 0) return;
    const path = await writeScene(dir, 'locked.blend', blendBytes());
    await chmod(path, 0o000);
    expect((await failure(path)).code).toBe('unreadable');
    await writeFile(path, '').catch(() => undefined);
  });
});

describe('unsafePathReason', () => {
  it('accepts plain relative paths', () => {
    expect(unsafePathReason('a/b/c.blend')).toBeNull();
    expect(unsafePathReason('a..b/c')).toBeNull();
  });
  it('accepts backslash separators and ".." that stays inside', () => {
    expect(unsafePathReason('a\\b\\c.blend')).toBeNull();
    expect(unsafePathReason('a/../b.blend')).toBeNull();
  });
  it('names the problem', () => {
    expect(unsafePathReason('a/../../b')).toMatch(/\.\./);
    expect(unsafePathReason('\\\\server\\share')).toMatch(/absolute/);
    expect(unsafePathReason('d:x')).toMatch(/drive/);
    expect(unsafePathReason('a\0b')).toMatch(/NUL/);
  });
});
