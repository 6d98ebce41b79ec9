import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';

/** Limits applied while extracting a bundle. */
export interface ZipLimits {
  maxTotalBytes: number;
  maxEntries: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxTotalBytes: 20 * 1024 ** 3, maxEntries: 20_000 };

/** Why a bundle could not be used; `name` is the failedReason name. */
export class ZipError extends Error {
  constructor(
    readonly reasonName: string,
    message: string,
  ) {
    super(message);
    this.name = 'ZipError';
  }
}

/**
 * A safe relative path for a zip entry name, or null when the entry must be refused (absolute,
 * drive-letter, `..` escaping the folder, NUL bytes).
 */
export function safeEntryPath(name: string): string | null {
  if (name.includes('\0')) return null;
  const slashed = name.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed)) return null;
  const normal = posix.normalize(slashed);
  if (normal === '..' || normal.startsWith('../') || normal.split('/').includes('..')) return null;
  return normal.replace(/^(\.\/)+/, '');
}

const isSymlink = (entry: yauzl.Entry) => ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;

/**
 * Extract a zip into `dest` (created fresh), refusing entries that escape it, symbolic links, and
 * bundles over the size or entry limits. Returns the relative paths of the files written.
 */
export async function extractZip(zipPath: string, dest: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<string[]> {
  await rm(dest, { recursive: true, force: true });
  await mkdir(dest, { recursive: true });
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.open(zipPath, { lazyEntries: true, autoClose: true, strictFileNames: false, validateEntrySizes: true }, (err, z) =>
        err ? reject(err) : resolve(z!),
      ),
    );
  } catch (err) {
    throw new ZipError('ZipUnreadable', `The uploaded zip cannot be read: ${(err as Error).message}.`);
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new ZipError('ZipTooManyFiles', `The zip holds ${zip.entryCount} entries; the limit is ${limits.maxEntries}.`);
  }
  const written: string[] = [];
  let total = 0;
  try {
    await readAll();
  } catch (err) {
    await rm(dest, { recursive: true, force: true });
    await mkdir(dest, { recursive: true });
    throw err;
  }
  return written;

  function readAll(): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const fail = (err: Error) => {
      zip.close();
      reject(err instanceof ZipError ? err : toZipError(err));
    };
    zip.on('error', fail);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      const rel = safeEntryPath(entry.fileName);
      if (rel === null) return fail(new ZipError('ZipUnsafePath', `The zip entry "${entry.fileName}" points outside the bundle.`));
      if (isSymlink(entry)) return fail(new ZipError('ZipUnsafePath', `The zip entry "${entry.fileName}" is a symbolic link.`));
      if (entry.fileName.endsWith('/') || rel === '.' || rel === '') return zip.readEntry();
      total += entry.uncompressedSize;
      if (total > limits.maxTotalBytes) {
        return fail(new ZipError('ZipTooLarge', `The zip expands to more than ${limits.maxTotalBytes} bytes.`));
      }
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) return fail(err ?? new Error('no stream'));
        const target = join(dest, rel);
        let seen = 0;
        let crc = 0;
        const guard = new Transform({
          transform(chunk: Buffer, _enc, cb) {
            seen += chunk.length;
            crc = crc32(chunk, crc);
            if (seen > entry.uncompressedSize) cb(new ZipError('ZipUnreadable', `The zip entry "${rel}" is larger than it declares.`));
            else cb(null, chunk);
          },
          flush(cb) {
            if (crc >>> 0 !== entry.crc32 >>> 0) cb(new ZipError('ZipUnreadable', `The zip entry "${rel}" is damaged (checksum mismatch).`));
            else cb();
          },
        });
        mkdir(dirname(target), { recursive: true })
          .then(() => pipeline(stream, guard, createWriteStream(target)))
          .then(() => {
            written.push(rel);
            zip.readEntry();
          }, fail);
      });
    });
    zip.readEntry();
  });
  }
}

/** Classify an error of the zip reader: names escaping the folder are unsafe, anything else unreadable. */
function toZipError(err: Error): ZipError {
  if (/absolute path|invalid relative path|invalid characters in fileName/i.test(err.message)) {
    const name = err.message.split(': ').slice(1).join(': ') || err.message;
    return new ZipError('ZipUnsafePath', `The zip entry "${name}" points outside the bundle.`);
  }
  return new ZipError('ZipUnreadable', `The uploaded zip cannot be extracted: ${err.message}.`);
}

/**
 * Which `.blend` of a bundle to render: `requested` when given (it must exist), else the only
 * `.blend` at the top of the bundle, else the only `.blend` anywhere in it.
 */
export function chooseScene(files: readonly string[], requested?: string): string {
  const blends = files.filter((f) => f.toLowerCase().endsWith('.blend'));
  if (requested !== undefined) {
    const want = safeEntryPath(requested);
    if (want && blends.includes(want)) return want;
    throw new ZipError('SceneNotInZip', `The zip has no scene "${requested}". It holds: ${list(blends)}.`);
  }
  if (blends.length === 0) throw new ZipError('NoSceneInZip', 'The zip holds no .blend file.');
  const top = blends.filter((f) => !f.includes('/'));
  if (top.length === 1) return top[0]!;
  if (top.length === 0 && blends.length === 1) return blends[0]!;
  const candidates = top.length > 1 ? top : blends;
  throw new ZipError(
    'AmbiguousScene',
    `The zip holds several scenes (${list(candidates)}). Keep one .blend at its top, or validate with {"scenePath": "<one of them>"}.`,
  );
}

const list = (xs: readonly string[]) => (xs.length ? xs.slice(0, 10).join(', ') + (xs.length > 10 ? ', ...' : '') : 'none');
