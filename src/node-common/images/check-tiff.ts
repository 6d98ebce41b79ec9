import type { RandomAccessBytes } from './random-access-bytes';
import type { StructureProblem } from './structure-problem';

const STRIP_OFFSETS = 273;
const STRIP_BYTE_COUNTS = 279;
const TILE_OFFSETS = 324;
const TILE_BYTE_COUNTS = 325;
const TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 16: 8 };

/**
 * A TIFF is whole when its first directory lies inside the file and every strip (or tile) it lists
 * ends inside the file. libtiff writes the directory after the image data, so a file cut short loses it.
 */
export async function checkTiff(source: RandomAccessBytes, head: Buffer): Promise<StructureProblem> {
  const little = head[0] === 0x49;
  const u16 = (b: Buffer, at: number) => (little ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const u32 = (b: Buffer, at: number) => (little ? b.readUInt32LE(at) : b.readUInt32BE(at));
  const ifd = u32(head, 4);
  const countBytes = await source.read(ifd, 2);
  if (countBytes.length < 2) return `its directory (at byte ${ifd}) is past the end of the file (${source.size} bytes)`;
  const count = u16(countBytes, 0);
  const entries = await source.read(ifd + 2, count * 12);
  if (entries.length < count * 12 || ifd + 2 + count * 12 + 4 > source.size) return 'its directory is cut short';

  const values = async (index: number): Promise<number[]> => {
    const at = index * 12;
    const type = u16(entries, at + 2);
    const n = u32(entries, at + 4);
    const size = TYPE_SIZES[type] ?? 0;
    if (type !== 3 && type !== 4 && type !== 16) return [];
    const bytes = n * size <= 4 ? entries.subarray(at + 8, at + 12) : await source.read(u32(entries, at + 8), n * size);
    if (bytes.length < n * size) throw new RangeError('value list cut short');
    const read = (i: number) => (type === 3 ? u16(bytes, i * 2) : type === 4 ? u32(bytes, i * 4) : Number(little ? bytes.readBigUInt64LE(i * 8) : bytes.readBigUInt64BE(i * 8)));
    return Array.from({ length: n }, (_, i) => read(i));
  };
  const tags = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    tags.set(u16(entries, i * 12), i);
    const bytes = (TYPE_SIZES[u16(entries, i * 12 + 2)] ?? 0) * u32(entries, i * 12 + 4);
    if (bytes > 4 && u32(entries, i * 12 + 8) + bytes > source.size) return 'a value of its directory lies past the end of the file';
  }
  const offsetsTag = tags.get(STRIP_OFFSETS) ?? tags.get(TILE_OFFSETS);
  const countsTag = tags.get(STRIP_BYTE_COUNTS) ?? tags.get(TILE_BYTE_COUNTS);
  if (offsetsTag === undefined || countsTag === undefined) return 'its directory lists no image data';
  const offsets = await values(offsetsTag);
  const sizes = await values(countsTag);
  for (let i = 0; i < offsets.length; i++) {
    const end = offsets[i]! + (sizes[i] ?? 0);
    if (end > source.size) return `its image data runs to byte ${end}, past the end of the file (${source.size} bytes)`;
  }
  return null;
}
