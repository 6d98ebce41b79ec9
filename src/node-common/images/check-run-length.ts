import type { RandomAccessBytes } from './random-access-bytes';
import { SequentialReader } from './sequential-reader';
import type { StructureProblem } from './structure-problem';

const cutShort = (row: number) => `its pixel data stops in row ${row + 1}`;

/**
 * A Targa file is whole when its pixels are all there: the raw kinds by their size, the run-length
 * kinds by walking their packets to the last pixel.
 */
export async function checkTga(source: RandomAccessBytes, head: Buffer): Promise<StructureProblem> {
  if (head.length < 18) return 'its header is cut short';
  const type = head[2]!;
  const width = head.readUInt16LE(12);
  const height = head.readUInt16LE(14);
  const pixelBytes = Math.ceil(head[16]! / 8);
  const start = 18 + head[0]! + head.readUInt16LE(5) * Math.ceil(head[7]! / 8);
  const pixels = width * height;
  if (![1, 2, 3, 9, 10, 11].includes(type) || pixelBytes === 0) return 'it is not a Targa image';
  if (type < 9) return source.size >= start + pixels * pixelBytes ? null : `its pixels need ${start + pixels * pixelBytes} bytes, the file has ${source.size}`;
  const reader = new SequentialReader(source, start);
  for (let done = 0; done < pixels; ) {
    const packet = await reader.u8();
    if (packet < 0) return cutShort(Math.floor(done / width));
    const count = (packet & 0x7f) + 1;
    if (!reader.skip(packet & 0x80 ? pixelBytes : count * pixelBytes)) return cutShort(Math.floor(done / width));
    done += count;
  }
  return null;
}

/** Walk one run-length encoded channel of a Radiance scanline; false when the data ends first. */
async function hdrChannel(reader: SequentialReader, width: number): Promise<boolean> {
  for (let done = 0; done < width; ) {
    const code = await reader.u8();
    if (code < 0) return false;
    if (code > 128) {
      if (!reader.skip(1)) return false;
      done += code - 128;
    } else {
      if (code === 0 || !reader.skip(code)) return false;
      done += code;
    }
  }
  return true;
}

/** A Radiance HDR file is whole when every scanline (run-length encoded or flat) is there. */
export async function checkHdr(source: RandomAccessBytes): Promise<StructureProblem> {
  const header = await source.read(0, Math.min(source.size, 64 * 1024));
  const blank = header.indexOf('\n\n');
  if (blank === -1) return 'its header is cut short';
  const lineEnd = header.indexOf('\n', blank + 2);
  const size = /^([-+])Y (\d+) ([-+])X (\d+)$/.exec(header.subarray(blank + 2, lineEnd).toString('latin1'));
  if (lineEnd === -1 || !size) return 'its header is cut short';
  const height = Number(size[2]);
  const width = Number(size[4]);
  const reader = new SequentialReader(source, lineEnd + 1);
  for (let row = 0; row < height; row++) {
    const start = reader.offset;
    const marks = [await reader.u8(), await reader.u8(), await reader.u8(), await reader.u8()];
    if (marks[3]! < 0) return cutShort(row);
    const encoded = marks[0] === 2 && marks[1] === 2 && ((marks[2]! << 8) | marks[3]!) === width && width >= 8 && width < 0x8000;
    if (encoded) {
      for (let channel = 0; channel < 4; channel++) if (!(await hdrChannel(reader, width))) return cutShort(row);
    } else if (!reader.skip(start + width * 4 - reader.offset)) {
      return cutShort(row);
    }
  }
  return null;
}

/** An SGI (Iris) image is whole when its raw pixels, or every run-length row its tables list, are inside it. */
export async function checkIris(source: RandomAccessBytes, head: Buffer): Promise<StructureProblem> {
  const rle = head[2] === 1;
  const bytesPerChannel = head[3]!;
  const width = head.readUInt16BE(6);
  const height = head.readUInt16BE(8);
  const channels = head.readUInt16BE(10);
  const rows = height * channels;
  if (!rle) {
    const need = 512 + width * rows * bytesPerChannel;
    return source.size >= need ? null : `its pixels need ${need} bytes, the file has ${source.size}`;
  }
  const tables = await source.read(512, rows * 8);
  if (tables.length < rows * 8) return 'its row tables are cut short';
  for (let i = 0; i < rows; i++) {
    const end = tables.readUInt32BE(i * 4) + tables.readUInt32BE((rows + i) * 4);
    if (end > source.size) return cutShort(i % height);
  }
  return null;
}
