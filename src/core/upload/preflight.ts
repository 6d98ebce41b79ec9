import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { constants as zlibConstants, inflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';
import { MAX_UPLOAD_BYTES, fileTypeOf, type FileType } from '../../shared/api';
import { errorCode, PreflightError } from '../errors';
import { formatBytes } from '../../shared/text';
import { entryPath, isMacMetadataEntry } from '../../shared/zip';
import { entryName, isSymlinkEntry } from '../../node-common/zip-entry';

/** How a scene file is stored. */
export type SceneFormat = 'blend' | 'blend-gzip' | 'blend-zstd' | 'zip';

/** What preflight learned about a file that passed every check. */
export interface PreflightResult {
  path: string;
  fileName: string;
  fileType: FileType;
  format: SceneFormat;
  size: number;
  mtimeMs: number;
  /** The `.blend` entries of a zip (empty for a plain `.blend`). */
  blendEntries: string[];
}

/** Limits preflight applies; `maxBytes` defaults to the API's 5 GiB. */
export interface PreflightOptions {
  maxBytes?: number;
}

const HEAD_BYTES = 64 * 1024;
/** Compressed bytes of a gzip head inflated to recognise a .blend inside (at most about 0.5 MiB out). */
const GZIP_HEAD_INPUT = 512;
const BLENDER_MAGIC = Buffer.from('BLENDER', 'latin1');
const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
const ZIP_LOCAL = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const ZIP_EMPTY = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

/**
 * Checks a scene file before anything is sent: it exists and is readable, is `.blend` or `.zip`, is
 * neither empty nor too large, really is a Blender file (plain, gzip or zstd) or a zip, and a zip holds
 * at least one `.blend`, no entry that escapes its folder and no symbolic link. Throws a
 * PreflightError naming the check.
 */
export async function preflight(path: string, options: PreflightOptions = {}): Promise<PreflightResult> {
  const fileName = basename(path);
  const maxBytes = options.maxBytes ?? MAX_UPLOAD_BYTES;
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new PreflightError('not-found', `${path} does not exist. Check the path.`);
    throw new PreflightError('unreadable', `${path} cannot be read (${code ?? 'error'}). Check its permissions.`);
  }
  if (!info.isFile()) throw new PreflightError('not-a-file', `${path} is not a file. Choose a .blend or .zip file.`);
  const fileType = fileTypeOf(fileName);
  if (fileType === null) {
    throw new PreflightError('bad-extension', `${fileName} is not a .blend or .zip file. Save the scene as .blend, or pack it with its assets into a .zip.`);
  }
  if (info.size === 0) throw new PreflightError('empty', `${fileName} is empty (0 bytes). Save the scene again.`);
  if (info.size >= maxBytes) {
    throw new PreflightError('too-large', `${fileName} is ${formatBytes(info.size)}; uploads must be smaller than ${formatBytes(maxBytes)}. Remove unused data or pack assets separately.`);
  }
  const head = await readHead(path, fileName);
  const base = { path, fileName, fileType, size: info.size, mtimeMs: info.mtimeMs };
  if (fileType === 'blend') {
    const format = blendFormat(head);
    if (format === null) {
      throw new PreflightError('not-blender', `${fileName} is not a Blender file (its first bytes are not a .blend header). Open it in Blender and save it again.`);
    }
    return { ...base, format, blendEntries: [] };
  }
  if (head.subarray(0, 4).equals(ZIP_EMPTY)) throw new PreflightError('zip-empty', `${fileName} is an empty zip. Add the .blend file and its assets to it.`);
  if (!head.subarray(0, 4).equals(ZIP_LOCAL)) throw new PreflightError('not-zip', `${fileName} is not a zip archive (its first bytes are not a zip header). Create it again with a zip tool.`);
  const blendEntries = await inspectZip(path, fileName);
  return { ...base, format: 'zip', blendEntries };
}

/** The storage of a Blender file from its first bytes, or null when it is not one. */
export function blendFormat(head: Buffer): Exclude<SceneFormat, 'zip'> | null {
  if (head.subarray(0, BLENDER_MAGIC.length).equals(BLENDER_MAGIC)) return 'blend';
  if (head.subarray(0, 4).equals(ZSTD_MAGIC)) return 'blend-zstd';
  if (head[0] === 0x1f && head[1] === 0x8b) {
    const inner = gunzipHead(head);
    if (inner !== null && inner.subarray(0, BLENDER_MAGIC.length).equals(BLENDER_MAGIC)) return 'blend-gzip';
  }
  return null;
}

function gunzipHead(head: Buffer): Buffer | null {
  if (head.length < 10 || head[2] !== 8) return null;
  const flags = head[3]!;
  let offset = 10;
  if (flags & 0x04) offset += 2 + head.readUInt16LE(offset);
  if (flags & 0x08) offset = head.indexOf(0, offset) + 1;
  if (flags & 0x10) offset = head.indexOf(0, offset) + 1;
  if (flags & 0x02) offset += 2;
  if (offset <= 0 || offset >= head.length) return null;
  try {
    // Only the .blend header is needed: a bomb's whole 64 KiB head would inflate to up to 64 MiB.
    return inflateRawSync(head.subarray(offset, offset + GZIP_HEAD_INPUT), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  } catch {
    return null;
  }
}

async function readHead(path: string, fileName: string): Promise<Buffer> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new PreflightError('unreadable', `${fileName} cannot be opened (${errorCode(error) ?? 'error'}). Check its permissions.`);
  }
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } catch (error) {
    throw new PreflightError('unreadable', `${fileName} cannot be read (${errorCode(error) ?? 'error'}). Check the disk and its permissions.`);
  } finally {
    await handle.close();
  }
}

/** Reads a zip's central directory (no extraction) and returns its `.blend` entries. */
function inspectZip(path: string, fileName: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true, decodeStrings: false, validateEntrySizes: false }, (openError, zip) => {
      if (openError || !zip) {
        reject(new PreflightError('zip-corrupt', `${fileName} is a damaged zip (${openError?.message ?? 'unreadable'}). Create it again.`));
        return;
      }
      const blends: string[] = [];
      let settled = false;
      const fail = (error: PreflightError) => {
        if (settled) return;
        settled = true;
        zip.close();
        reject(error);
      };
      zip.on('error', (error: Error) => fail(new PreflightError('zip-corrupt', `${fileName} is a damaged zip (${error.message}). Create it again.`)));
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entryName(entry);
        const verdict = entryPath(name);
        if (!verdict.ok) {
          fail(new PreflightError('zip-unsafe-entry', `${fileName} contains "${name}", which would land outside the job folder (${verdict.reason}). Re-create the zip with relative paths.`));
          return;
        }
        if (isSymlinkEntry(entry)) {
          fail(new PreflightError('zip-symlink', `${fileName} contains "${name}", a symbolic link, which could point outside the job folder. Re-create the zip with the real files instead of links.`));
          return;
        }
        const isDirectory = /[\\/]$/.test(name);
        if (!isDirectory && !isMacMetadataEntry(verdict.path) && verdict.path.toLowerCase().endsWith('.blend')) blends.push(verdict.path);
        zip.readEntry();
      });
      zip.on('end', () => {
        if (settled) return;
        settled = true;
        if (blends.length === 0) reject(new PreflightError('zip-no-blend', `${fileName} holds no .blend file. Add the scene to the zip.`));
        else resolve(blends);
      });
      zip.readEntry();
    });
  });
}
