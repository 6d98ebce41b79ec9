import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { entryPath, isMacMetadataEntry, blendFilesOf, defaultScene, namedScene } from '../../shared/zip';
import { entryName, isSymlinkEntry } from '../../node-common/zip-entry';

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
 * Extract a zip into `dest` (created fresh), refusing entries that escape it, symbolic links, and
 * bundles over the size or entry limits. Names are decoded by the shared rule (UTF-8 when valid, else
 * code page 437; backslashes are separators); macOS metadata (`__MACOSX/`, `._*`) is left out.
 * Returns the relative paths of the files written.
 */
export async function extractZip(zipPath: string, dest: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<string[]> {
  await rm(dest, { recursive: true, force: true });
  await mkdir(dest, { recursive: true });
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.open(zipPath, { lazyEntries: true, autoClose: true, decodeStrings: false, validateEntrySizes: true }, (err, z) =>
        err ? reject(err) : resolve(z!),
      ),
    );
  } catch (err) {
    throw unreadableZip(err);
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
      const name = entryName(entry);
      const verdict = entryPath(name);
      if (!verdict.ok) return fail(new ZipError('ZipUnsafePath', `The zip entry "${name}" points outside the bundle (${verdict.reason}).`));
      if (isSymlinkEntry(entry)) return fail(new ZipError('ZipUnsafePath', `The zip entry "${name}" is a symbolic link.`));
      const rel = verdict.path;
      if (name.endsWith('/') || name.endsWith('\\') || rel === '' || isMacMetadataEntry(rel)) return zip.readEntry();
      total += entry.uncompressedSize;
      if (total > limits.maxTotalBytes) {
        return fail(new ZipError('ZipTooLarge', `The zip expands to more than ${limits.maxTotalBytes} bytes.`));
      }
      const target = join(dest, rel);
      // The folder first, then the entry's stream straight into the pipeline: a stream left waiting
      // could fail (data past its declared size) with nobody listening, as an uncaught exception.
      mkdir(dirname(target), { recursive: true }).then(
        () =>
          zip.openReadStream(entry, (err, stream) => {
            if (err || !stream) return fail(err ?? new Error('no stream'));
            pipeline(stream, entryGuard(entry, rel), createWriteStream(target)).then(
              () => {
                written.push(rel);
                zip.readEntry();
              },
              (failure: unknown) => fail(writeError(failure, rel)),
            );
          }),
        (failure: unknown) => fail(writeError(failure, rel)),
      );
    });
    zip.readEntry();
  });
  }
}

/** Why an uploaded zip could not be opened, in the zip reader's words (never a path on the node). */
export function unreadableZip(err: unknown): ZipError {
  return new ZipError('ZipUnreadable', `The uploaded zip cannot be read: ${withoutQuotedPaths(err)}.`);
}

/** An error of the zip reader as a reason: the reader's own words, never a path on the node. */
function toZipError(err: Error): ZipError {
  return new ZipError('ZipUnreadable', `The uploaded zip cannot be extracted: ${withoutQuotedPaths(err)}.`);
}

/** An error's message without the quoted file paths Node's system errors end with. */
function withoutQuotedPaths(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/,?\s*(open|mkdir|stat|rename|unlink|scandir)?\s*'[^']*'/g, '').trim().replace(/\.+$/, '');
}

/** Why an entry could not be written, in the words of the bundle (the node's folders are never named). */
function writeError(err: unknown, rel: string): Error {
  if (err instanceof ZipError) return err;
  const code = err instanceof Error && 'code' in err ? String(err.code) : '';
  if (code === 'ENAMETOOLONG') {
    return new ZipError('ZipUnsafePath', `The zip entry "${rel}" has a name too long for the node's disk (at most 255 bytes per file or folder name).`);
  }
  if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') {
    return new ZipError('ZipConflictingNames', `The zip holds "${rel}" where another entry is a file or folder of the same name.`);
  }
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * Which `.blend` of a bundle to render: `requested` when given (it must exist), else the one the shared
 * rule picks (the only `.blend` at the top of the bundle, else the only one anywhere in it).
 */
export function chooseScene(files: readonly string[], requested?: string): string {
  const blends = blendFilesOf(files);
  if (requested !== undefined) {
    const named = namedScene(blends, requested);
    if (named !== null) return named;
    throw new ZipError('SceneNotInZip', `The zip has no scene "${requested}". It holds: ${list(blends)}.`);
  }
  const scene = defaultScene(blends);
  if (scene.kind === 'one') return scene.path;
  if (scene.kind === 'none') throw new ZipError('NoSceneInZip', 'The zip holds no .blend file.');
  throw new ZipError(
    'AmbiguousScene',
    `The zip holds several scenes (${list(scene.candidates)}). Keep one .blend at its top, or validate with {"scenePath": "<one of them>"}.`,
  );
}

const list = (xs: readonly string[]) => (xs.length ? xs.slice(0, 10).join(', ') + (xs.length > 10 ? ', ...' : '') : 'none');

/** Passes an entry's bytes through, failing past its declared size or on a checksum that does not match. */
function entryGuard(entry: yauzl.Entry, rel: string): Transform {
  let seen = 0;
  let crc = 0;
  return new Transform({
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
}
