import { BlendFileError, truncatedError } from './blend-file-error';

/** What the header at the start of a (decompressed) .blend says. */
export interface BlendHeader {
  /** 0: 12-byte `BLENDER-v304` header (up to Blender 4.x); 1: 17-byte `BLENDER17-01v0500` header (5.0+). */
  formatVersion: 0 | 1;
  /** Bytes of the file header; the first block follows it. */
  headerSize: number;
  pointerSize: 4 | 8;
  littleEndian: boolean;
  /** Blender version that wrote the file, e.g. 304 for 3.4, 500 for 5.0. */
  version: number;
  /** Bytes of each block header: 20 (4-byte pointers), 24 (8-byte pointers), 32 (format 1). */
  blockHeaderSize: 20 | 24 | 32;
}

/** Bytes to read to be sure the whole header is there. */
export const MAX_HEADER_BYTES = 17;
const MAGIC = 'BLENDER';
const SMALL = /^BLENDER([_-])([vV])(\d{3})/;
const LARGE = /^BLENDER(\d{2})-(\d{2})([vV])(\d{4})/;

/**
 * Parse the header from the first bytes of the decompressed content. Throws a BlendFileError naming
 * `path` when the bytes are not a .blend or come from a format this reader does not know.
 */
export function parseBlendHeader(bytes: Buffer, path: string): BlendHeader {
  const text = bytes.subarray(0, MAX_HEADER_BYTES).toString('latin1');
  if (!text.startsWith(MAGIC)) {
    if (MAGIC.startsWith(text)) throw truncatedError(path, 'it ends inside its header');
    throw new BlendFileError('not-blend', path, `${path} is not a Blender file (it does not start with a .blend header). Choose the scene's .blend file.`);
  }
  const small = SMALL.exec(text);
  if (small) {
    const pointerSize = small[1] === '_' ? 4 : 8;
    return { formatVersion: 0, headerSize: 12, pointerSize, littleEndian: small[2] === 'v', version: Number(small[3]), blockHeaderSize: pointerSize === 4 ? 20 : 24 };
  }
  const large = LARGE.exec(text);
  if (large && Number(large[2]) === 1 && Number(large[1]) >= 17) {
    return { formatVersion: 1, headerSize: Number(large[1]), pointerSize: 8, littleEndian: large[3] === 'v', version: Number(large[4]), blockHeaderSize: 32 };
  }
  if (text.length < 12) throw truncatedError(path, 'it ends inside its header');
  throw new BlendFileError(
    'unsupported',
    path,
    `${path} was saved in a .blend format this version of Renderdrop does not know (header "${text.replace(/[^\x20-\x7e]/g, '?')}"). Update Renderdrop, or save the scene from an older Blender.`,
  );
}
