import type { RandomAccessBytes } from './random-access-bytes';
import type { StructureProblem } from './structure-problem';

function againstDeclared(source: RandomAccessBytes, declared: number, what: string): StructureProblem {
  return source.size >= declared ? null : `${what} says ${declared} bytes, the file has ${source.size}`;
}

/** A BMP is whole when it is as long as its header says (or, without that, as its pixel rows need). */
export async function checkBmp(source: RandomAccessBytes, head: Buffer): Promise<StructureProblem> {
  const declared = head.readUInt32LE(2);
  if (declared > 0) return againstDeclared(source, declared, 'its header');
  const info = await source.read(14, 24);
  if (info.length < 24) return 'its header is cut short';
  const width = info.readInt32LE(4);
  const height = Math.abs(info.readInt32LE(8));
  const bits = info.readUInt16LE(14);
  const rows = Math.ceil((width * bits) / 32) * 4 * height;
  return againstDeclared(source, head.readUInt32LE(10) + rows, 'its pixel rows need');
}

/** A WebP is whole when it is as long as its RIFF header says. */
export async function checkWebp(source: RandomAccessBytes, head: Buffer): Promise<StructureProblem> {
  return againstDeclared(source, head.readUInt32LE(4) + 8, 'its RIFF header');
}

/** A DPX file is whole when it is as long as its header says. */
export async function checkDpx(source: RandomAccessBytes, head: Buffer): Promise<StructureProblem> {
  const big = head.subarray(0, 4).toString('latin1') === 'SDPX';
  return againstDeclared(source, big ? head.readUInt32BE(16) : head.readUInt32LE(16), 'its header');
}

/** A Cineon file is whole when it is as long as its header says. */
export async function checkCineon(source: RandomAccessBytes, head: Buffer): Promise<StructureProblem> {
  const big = head[0] === 0x80;
  return againstDeclared(source, big ? head.readUInt32BE(20) : head.readUInt32LE(20), 'its header');
}

/** JPEG and JPEG 2000 code streams end with the end-of-image marker FF D9. */
export async function checkEndMarker(source: RandomAccessBytes, format: string): Promise<StructureProblem> {
  const tail = await source.read(source.size - 2, 2);
  return tail[0] === 0xff && tail[1] === 0xd9 ? null : `the ${format} data stops without its end marker`;
}
