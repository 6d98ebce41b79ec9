import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, gzipSync } from 'node:zlib';

/** A fresh temporary folder. */
export function tempDir(prefix = 'renderdrop-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Bytes that start like an uncompressed .blend file. */
export function blendBytes(size = 4096): Buffer {
  const buffer = Buffer.alloc(size, 7);
  buffer.write('BLENDER-v404REND', 0, 'latin1');
  return buffer;
}

/** A gzip-compressed .blend. */
export function gzipBlendBytes(): Buffer {
  return gzipSync(blendBytes(16 * 1024));
}

/** A zstd-compressed .blend (magic only; the rest is not inspected). */
export function zstdBlendBytes(): Buffer {
  return Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), Buffer.alloc(512, 1)]);
}

/**
 * A zip with stored entries named exactly as given (including hostile names no zip tool would
 * write), so preflight's checks can be exercised.
 */
export function zipBytes(entries: { name: string; data?: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = entry.data ?? Buffer.from('x');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Writes `content` to `<dir>/<name>` and returns the path. */
export async function writeScene(dir: string, name: string, content: Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}
