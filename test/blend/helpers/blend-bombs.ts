import { createWriteStream } from 'node:fs';
import { stat, appendFile } from 'node:fs/promises';
import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip, createZstdCompress } from 'node:zlib';

/** The 12-byte header a .blend of Blender 3.4 (64-bit, little-endian) starts with: what each bomb starts with. */
export const BLEND_HEADER = Buffer.from('BLENDER-v304');

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
const ZERO_CHUNK = Buffer.alloc(8 * MIB);
/** Content of each repeated gzip member or zstd frame. */
const PIECE_BYTES = 128 * MIB;

/** `prefix`, then zeros up to `bytes` in all, streamed in chunks (nothing of that size held in memory). */
function zeros(bytes: number, prefix: Buffer = Buffer.alloc(0)): Readable {
  return Readable.from(
    (function* () {
      yield prefix;
      for (let left = bytes - prefix.length; left > 0; left -= ZERO_CHUNK.length) yield left >= ZERO_CHUNK.length ? ZERO_CHUNK : ZERO_CHUNK.subarray(0, left);
    })(),
  );
}

async function compressed(content: Readable, compressor: Transform): Promise<Buffer> {
  const out: Buffer[] = [];
  await pipeline(content, compressor, async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) out.push(chunk);
  });
  return Buffer.concat(out);
}

const zstd = () => createZstdCompress({ params: { [constants.ZSTD_c_compressionLevel]: 1 } });
const gzip = () => createGzip({ level: 1 });

/** Write `first` then `rest` repeated `times` times to `path`, streamed. */
async function writeRepeated(path: string, first: Buffer, rest: Buffer, times: number): Promise<void> {
  await pipeline(
    Readable.from(
      (function* () {
        yield first;
        for (let i = 0; i < times; i++) yield rest;
      })(),
    ),
    createWriteStream(path),
  );
}

/**
 * A zstd .blend of one frame holding a .blend header and zeros up to `contentBytes`, followed by a
 * Blender seek table that claims the frame unpacks to only `claimedBytes`.
 */
export async function writeUnderstatedZstd(path: string, contentBytes: number, claimedBytes: number): Promise<void> {
  await pipeline(zeros(contentBytes, BLEND_HEADER), zstd(), createWriteStream(path));
  const frameBytes = (await stat(path)).size;
  const table = Buffer.alloc(8 + 8 + 9);
  table.writeUInt32LE(0x184d2a5e, 0);
  table.writeUInt32LE(table.length - 8, 4);
  table.writeUInt32LE(frameBytes, 8);
  table.writeUInt32LE(claimedBytes, 12);
  table.writeUInt32LE(1, 16);
  table.writeUInt8(0, 20);
  table.writeUInt32LE(0x8f92eab1, 21);
  await appendFile(path, table);
}

/** A zstd file without seek table (frames that do not record their size) holding a .blend header and zeros: `gib` GiB in all. */
export async function writeZstdWithoutTable(path: string, gib: number): Promise<void> {
  const first = await compressed(zeros(PIECE_BYTES, BLEND_HEADER), zstd());
  const rest = await compressed(zeros(PIECE_BYTES), zstd());
  await writeRepeated(path, first, rest, (gib * GIB) / PIECE_BYTES - 1);
}

/** A gzip file (one member per 128 MiB) holding a .blend header and zeros: `gib` GiB in all. */
export async function writeGzipBomb(path: string, gib: number): Promise<void> {
  const first = await compressed(zeros(PIECE_BYTES, BLEND_HEADER), gzip());
  const rest = await compressed(zeros(PIECE_BYTES), gzip());
  await writeRepeated(path, first, rest, (gib * GIB) / PIECE_BYTES - 1);
}

/** Gzip `bytes` (streamed, so a large content need not be held in memory). */
export function gzipStreamed(content: Readable): Promise<Buffer> {
  return compressed(content, gzip());
}

export { GIB, MIB, zeros };
