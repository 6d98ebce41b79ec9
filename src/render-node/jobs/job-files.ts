import { createWriteStream } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import type { JobRecord } from '../store';
import { safeFileName } from '../disk';

/** File name of a job's frames zip: `<scene>-frames.zip`. */
export function framesZipName(job: JobRecord): string {
  const scene = (job.sceneFile?.fileName ?? 'scene').replace(/\.(blend|zip)$/i, '');
  return `${safeFileName(scene, 'scene')}-frames.zip`;
}

/** Write a zip of `files` (stored, not compressed) to `target`, through `<target>.part`. */
export async function writeZip(target: string, files: { path: string; name: string }[], signal: AbortSignal): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const f of files) zip.addFile(f.path, f.name, { compress: false });
  zip.end();
  const part = `${target}.part`;
  const out = createWriteStream(part);
  try {
    await pipeline(zip.outputStream, out, { signal });
  } catch (err) {
    await rm(part, { force: true });
    throw err;
  }
  await rename(part, target);
}

/** Every non-empty file under a folder, as paths relative to it; hidden files and folders are left out. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = join(d, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile() && (await stat(full)).size > 0) out.push(relative(dir, full).split('\\').join('/'));
    }
  };
  await walk(dir);
  return out.sort();
}
