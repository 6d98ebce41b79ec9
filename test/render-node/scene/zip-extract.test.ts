import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ZipError, chooseScene, extractZip } from '../../../src/render-node/scene/zip-extract';
import { crc32, tableCrc32, zipBytes, type ZipEntrySpec, type ZipOptions } from '../../helpers/zip-bytes';

let base: string;
let dest: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'rd-zip-'));
  dest = join(base, 'out', 'bundle');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function writeZip(entries: ZipEntrySpec[], options?: ZipOptions): Promise<string> {
  const path = join(base, `in-${Math.random().toString(36).slice(2)}.zip`);
  await writeFile(path, zipBytes(entries, options));
  return path;
}

async function zipFailure(promise: Promise<unknown>): Promise<ZipError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ZipError);
  return err as ZipError;
}

/** Every path under `dir`, relative, files and folders. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.map((e) => e.replace(/\\/g, '/')).sort();
}

/** Only the destination folder may appear next to the zips in the work folder. */
async function expectNothingOutsideDest(): Promise<void> {
  const top = (await readdir(base)).filter((n) => !n.endsWith('.zip'));
  expect(top).toEqual(['out']);
  expect(await readdir(join(base, 'out'))).toEqual(['bundle']);
}

describe('zip-bytes helper', () => {
  it('computes the standard CRC-32 check value both ways', () => {
    const check = Buffer.from('123456789');
    expect(crc32(check)).toBe(0xcbf43926);
    expect(tableCrc32(check)).toBe(0xcbf43926);
    const random = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 7919) % 256));
    expect(tableCrc32(random)).toBe(crc32(random));
  });

  it('writes archives a real zip reader accepts', async () => {
    const path = await writeZip([
      { name: 'a.txt', data: 'hello' },
      { name: 'dir/', data: '' },
      { name: 'dir/b.bin', data: Buffer.from([0, 1, 2, 255]), method: 'deflate' },
    ]);
    const names = await new Promise<string[]>((resolve, reject) => {
      yauzl.open(path, { lazyEntries: false }, (err, zip) => {
        if (err || !zip) return reject(err ?? new Error('no zip'));
        const seen: string[] = [];
        zip.on('entry', (e: yauzl.Entry) => seen.push(`${e.fileName}:${e.uncompressedSize}:${e.crc32}`));
        zip.on('end', () => resolve(seen));
        zip.on('error', reject);
      });
    });
    expect(names).toEqual([
      `a.txt:5:${crc32(Buffer.from('hello'))}`,
      'dir/:0:0',
      `dir/b.bin:4:${crc32(Buffer.from([0, 1, 2, 255]))}`,
    ]);
  });
});

describe('extractZip', () => {
  it('extracts a bundle with the right files and bytes', async () => {
    const blend = Buffer.concat([Buffer.from('BLENDER-v402'), Buffer.alloc(300, 7)]);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const path = await writeZip([
      { name: 'scene.blend', data: blend },
      { name: 'textures/', data: '' },
      { name: 'textures/a.png', data: png },
    ]);
    const written = await extractZip(path, dest);
    expect([...written].sort()).toEqual(['scene.blend', 'textures/a.png']);
    expect(await readFile(join(dest, 'scene.blend'))).toEqual(blend);
    expect(await readFile(join(dest, 'textures', 'a.png'))).toEqual(png);
    expect(await tree(dest)).toEqual(['scene.blend', 'textures', 'textures/a.png']);
    await expectNothingOutsideDest();
  });

  it('extracts deflated entries', async () => {
    const text = 'frame '.repeat(5000);
    const path = await writeZip([{ name: 'notes/readme.txt', data: text, method: 'deflate' }]);
    expect(await extractZip(path, dest)).toEqual(['notes/readme.txt']);
    expect(await readFile(join(dest, 'notes', 'readme.txt'), 'utf8')).toBe(text);
  });

  it('replaces whatever the destination held before', async () => {
    const first = await writeZip([{ name: 'old.txt', data: 'old' }]);
    await extractZip(first, dest);
    const second = await writeZip([{ name: 'new.txt', data: 'new' }]);
    await extractZip(second, dest);
    expect(await tree(dest)).toEqual(['new.txt']);
  });

  const hostileNames = ['../evil.txt', 'textures/../../evil.txt', '/rd-abs-escape-check.txt', 'C:/x.txt', '..\\evil.txt'];

  it.each(hostileNames)('refuses the entry %j and writes nothing outside the folder', async (name) => {
    const path = await writeZip([
      { name: 'scene.blend', data: 'ok' },
      { name, data: 'pwned' },
    ]);
    await zipFailure(extractZip(path, dest));
    await expectNothingOutsideDest();
    expect(existsSync(join(base, 'out', 'evil.txt'))).toBe(false);
    expect(existsSync(join(base, 'evil.txt'))).toBe(false);
    expect(existsSync('/rd-abs-escape-check.txt')).toBe(false);
    expect((await tree(dest)).filter((p) => p !== 'scene.blend')).toEqual([]);
  });

  it.each(hostileNames)('reports the entry %j as an unsafe path, naming it', async (name) => {
    const path = await writeZip([{ name, data: 'pwned' }]);
    const err = await zipFailure(extractZip(path, dest));
    expect(err.reasonName).toBe('ZipUnsafePath');
    expect(err.message).toContain(name);
  });

  it('refuses a symbolic link entry', async () => {
    const path = await writeZip([
      { name: 'scene.blend', data: 'ok' },
      { name: 'link', data: '../../../../../etc/passwd', unixMode: 0o120777 },
    ]);
    const err = await zipFailure(extractZip(path, dest));
    expect(err.reasonName).toBe('ZipUnsafePath');
    expect(err.message).toMatch(/symbolic link/);
    expect(existsSync(join(dest, 'link'))).toBe(false);
    await expectNothingOutsideDest();
  });

  it('accepts a regular file carrying unix permissions', async () => {
    const path = await writeZip([{ name: 'scene.blend', data: 'ok', unixMode: 0o100644 }]);
    expect(await extractZip(path, dest)).toEqual(['scene.blend']);
  });

  it('refuses more entries than the limit before writing anything', async () => {
    const path = await writeZip([1, 2, 3, 4, 5].map((i) => ({ name: `f${i}.txt`, data: `${i}` })));
    const err = await zipFailure(extractZip(path, dest, { maxEntries: 3, maxTotalBytes: 1_000_000 }));
    expect(err.reasonName).toBe('ZipTooManyFiles');
    expect(err.message).toContain('5');
    expect(err.message).toContain('3');
    expect(await tree(dest)).toEqual([]);
  });

  it('accepts exactly the entry limit', async () => {
    const path = await writeZip([1, 2, 3].map((i) => ({ name: `f${i}.txt`, data: `${i}` })));
    const written = await extractZip(path, dest, { maxEntries: 3, maxTotalBytes: 1_000_000 });
    expect(written).toHaveLength(3);
  });

  it('refuses a bundle that expands beyond the size limit', async () => {
    const path = await writeZip([
      { name: 'a.bin', data: Buffer.alloc(600, 1) },
      { name: 'b.bin', data: Buffer.alloc(600, 2) },
    ]);
    const err = await zipFailure(extractZip(path, dest, { maxEntries: 10, maxTotalBytes: 1000 }));
    expect(err.reasonName).toBe('ZipTooLarge');
    expect(existsSync(join(dest, 'b.bin'))).toBe(false);
  });

  it('accepts a bundle of exactly the size limit', async () => {
    const path = await writeZip([
      { name: 'a.bin', data: Buffer.alloc(500, 1) },
      { name: 'b.bin', data: Buffer.alloc(500, 2) },
    ]);
    expect(await extractZip(path, dest, { maxEntries: 10, maxTotalBytes: 1000 })).toHaveLength(2);
  });

  it('refuses an entry whose data inflates past its declared size', async () => {
    const path = await writeZip([{ name: 'bomb.bin', data: Buffer.alloc(200_000), method: 'deflate', declaredSize: 100 }]);
    const err = await zipFailure(extractZip(path, dest, { maxEntries: 10, maxTotalBytes: 1000 }));
    expect(err.reasonName).toBe('ZipUnreadable');
    const written = existsSync(join(dest, 'bomb.bin')) ? (await readFile(join(dest, 'bomb.bin'))).length : 0;
    expect(written).toBeLessThanOrEqual(100);
  });

  it('refuses a stored entry whose data is larger than its declared size', async () => {
    const path = await writeZip([{ name: 'big.bin', data: Buffer.alloc(64, 9), declaredSize: 8 }]);
    const err = await zipFailure(extractZip(path, dest));
    expect(err.reasonName).toBe('ZipUnreadable');
  });

  it('refuses an entry whose bytes do not match its CRC-32', async () => {
    const data = Buffer.from('BLENDER-v402 scene bytes');
    const path = await writeZip([{ name: 'scene.blend', data, crc: crc32(data) ^ 0x1 }]);
    const err = await zipFailure(extractZip(path, dest));
    expect(err.reasonName).toBe('ZipUnreadable');
  });

  it('reports a file that is not a zip as unreadable', async () => {
    const path = join(base, 'not-a.zip');
    await writeFile(path, 'this is plain text, not a zip archive at all');
    const err = await zipFailure(extractZip(path, dest));
    expect(err.reasonName).toBe('ZipUnreadable');
    expect(err.message).toMatch(/cannot be read/);
  });
});

describe('chooseScene', () => {
  it('takes the one .blend at the top of the bundle', () => {
    expect(chooseScene(['scene.blend', 'textures/a.png'])).toBe('scene.blend');
    expect(chooseScene(['main.blend', 'libs/props.blend', 'libs/chars.blend'])).toBe('main.blend');
  });

  it('matches the extension case-insensitively and ignores .blend1 backups', () => {
    expect(chooseScene(['Shot.BLEND', 'Shot.blend1'])).toBe('Shot.BLEND');
  });

  it('refuses several top-level scenes and names them', () => {
    expect(() => chooseScene(['a.blend', 'b.blend', 'textures/t.png'])).toThrow(ZipError);
    try {
      chooseScene(['a.blend', 'b.blend', 'textures/t.png']);
    } catch (err) {
      expect((err as ZipError).reasonName).toBe('AmbiguousScene');
      expect((err as ZipError).message).toContain('a.blend, b.blend');
      expect((err as ZipError).message).toContain('scenePath');
    }
  });

  it('takes the only .blend when it is nested', () => {
    expect(chooseScene(['project/shots/s010.blend', 'project/tex/a.png'])).toBe('project/shots/s010.blend');
  });

  it('refuses several nested scenes with none at the top', () => {
    let caught: unknown;
    try {
      chooseScene(['x/a.blend', 'y/b.blend']);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ZipError);
    expect((caught as ZipError).reasonName).toBe('AmbiguousScene');
    expect((caught as ZipError).message).toContain('x/a.blend, y/b.blend');
  });

  it('takes an explicit scenePath that exists', () => {
    expect(chooseScene(['a.blend', 'b.blend'], 'b.blend')).toBe('b.blend');
    expect(chooseScene(['a.blend', 'sub/c.blend'], './sub/c.blend')).toBe('sub/c.blend');
    expect(chooseScene(['a.blend', 'sub/c.blend'], 'sub\\c.blend')).toBe('sub/c.blend');
  });

  it('refuses an explicit scenePath that is absent, listing the scenes', () => {
    let caught: unknown;
    try {
      chooseScene(['a.blend', 'b.blend', 'tex.png'], 'c.blend');
    } catch (err) {
      caught = err;
    }
    expect((caught as ZipError).reasonName).toBe('SceneNotInZip');
    expect((caught as ZipError).message).toContain('"c.blend"');
    expect((caught as ZipError).message).toContain('a.blend, b.blend');
  });

  it('refuses an explicit scenePath that is not a .blend or escapes the bundle', () => {
    expect(() => chooseScene(['a.blend', 'tex.png'], 'tex.png')).toThrow(/no scene "tex.png"/);
    expect(() => chooseScene(['a.blend'], '../a.blend')).toThrow(ZipError);
  });

  it('refuses a bundle without any .blend', () => {
    let caught: unknown;
    try {
      chooseScene(['textures/a.png', 'readme.txt']);
    } catch (err) {
      caught = err;
    }
    expect((caught as ZipError).reasonName).toBe('NoSceneInZip');
    expect(() => chooseScene([])).toThrow(/no \.blend/);
  });
});

describe('extractZip with the names real tools write', () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9]);
  const blend = Buffer.from('BLENDER-v304 scene');

  it('reads an unflagged name that is not UTF-8 as code page 437', async () => {
    const path = await writeZip([{ name: 'Über.png', rawName: Buffer.from([0x9a, 0x62, 0x65, 0x72, 0x2e, 0x70, 0x6e, 0x67]), utf8Flag: false, data: png }]);
    expect(await extractZip(path, dest)).toEqual(['Über.png']);
  });

  it('leaves out the __MACOSX folder and AppleDouble files of a zip made by Finder', async () => {
    const path = await writeZip([
      { name: 'shot/', data: '' },
      { name: 'shot/scene.blend', data: blend },
      { name: 'shot/textures/wood.png', data: png },
      { name: '__MACOSX/', data: '' },
      { name: '__MACOSX/shot/', data: '' },
      { name: '__MACOSX/shot/._scene.blend', data: 'resource fork' },
      { name: '__MACOSX/shot/textures/._wood.png', data: 'resource fork' },
    ]);
    const written = await extractZip(path, dest);
    expect([...written].sort()).toEqual(['shot/scene.blend', 'shot/textures/wood.png']);
    expect(existsSync(join(dest, '__MACOSX'))).toBe(false);
    expect(chooseScene(written)).toBe('shot/scene.blend');
  });

  it('leaves out an AppleDouble ._scene.blend beside scene.blend', async () => {
    const path = await writeZip([
      { name: 'scene.blend', data: blend },
      { name: '._scene.blend', data: 'resource fork' },
    ]);
    const written = await extractZip(path, dest);
    expect(written).toEqual(['scene.blend']);
    expect(chooseScene(written)).toBe('scene.blend');
  });

  it('takes backslashes as separators, as PowerShell 5.1 Compress-Archive writes them', async () => {
    const path = await writeZip([
      { name: 'scene.blend', data: blend },
      { name: 'textures\\wood\\a.png', data: png },
    ]);
    expect(await extractZip(path, dest)).toEqual(['scene.blend', 'textures/wood/a.png']);
    expect(await readFile(join(dest, 'textures', 'wood', 'a.png'))).toEqual(png);
  });

  it('says which entry has a name too long for the disk, without naming the node\'s folders', async () => {
    const long = `${'x'.repeat(300)}.png`;
    const path = await writeZip([{ name: 'scene.blend', data: blend }, { name: `textures/${long}`, data: png }]);
    const err = await zipFailure(extractZip(path, dest));
    expect(err.message).toContain(long);
    expect(err.message).toMatch(/too long/);
    expect(err.message).not.toContain(base);
  });

  it('says which entry clashes with a file of the same name, without naming the node\'s folders', async () => {
    const path = await writeZip([{ name: 'textures', data: 'a file' }, { name: 'textures/a.png', data: png }]);
    const err = await zipFailure(extractZip(path, dest));
    expect(err.reasonName).toBe('ZipConflictingNames');
    expect(err.message).toContain('textures/a.png');
    expect(err.message).not.toContain(base);
  });
});
