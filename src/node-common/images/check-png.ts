import type { RandomAccessBytes } from './random-access-bytes';
import type { StructureProblem } from './structure-problem';

/** A PNG is whole when its chunks follow one another to an IEND chunk inside the file. */
export async function checkPng(source: RandomAccessBytes): Promise<StructureProblem> {
  let offset = 8;
  for (;;) {
    const header = await source.read(offset, 8);
    if (header.length < 8) return `its data stops at byte ${source.size} before the end marker`;
    const length = header.readUInt32BE(0);
    const type = header.subarray(4, 8).toString('latin1');
    const end = offset + 12 + length;
    if (end > source.size) return `its ${type} chunk at byte ${offset} runs past the end of the file (${source.size} bytes)`;
    if (type === 'IEND') return null;
    offset = end;
  }
}
