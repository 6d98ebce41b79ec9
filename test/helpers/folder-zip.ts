import { createWriteStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

/**
 * A zip of a folder holding `files` (relative path: content), laid out like `zip -r` lays it out (a
 * directory entry before the files of each folder), written in-process as `<name>` in a fresh folder;
 * returns its path. Tests of what real tools write use `realZip` in an integration test.
 */
export async function folderZip(name: string, files: Record<string, string | Buffer>): Promise<string> {
  const zip = new yazl.ZipFile();
  const folders = new Set<string>();
  for (const [relative, content] of Object.entries(files)) {
    const parts = relative.split('/').slice(0, -1);
    parts.forEach((_, i) => {
      const folder = parts.slice(0, i + 1).join('/');
      if (!folders.has(folder)) zip.addEmptyDirectory(folder);
      folders.add(folder);
    });
    zip.addBuffer(Buffer.from(content), relative, { mtime: new Date(0) });
  }
  zip.end();
  const out = join(await mkdtemp(join(tmpdir(), 'rd-folder-zip-')), name);
  await pipeline(zip.outputStream, createWriteStream(out));
  return out;
}
