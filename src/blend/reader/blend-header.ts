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

/**
 * What the text of a header spells, before anyone decides whether it is a format they can read:
 * Blender itself may read large headers of a later format version than this reader knows.
 */
export interface HeaderFields {
  /** `legacy`: the 12-byte `BLENDER-v304` header (up to Blender 4.x); `large`: `BLENDER17-01v0500` (5.0 and later). */
  layout: 'legacy' | 'large';
  /** Bytes of the header: 12 for `legacy`, as declared for `large` (17 for 5.0). */
  headerSize: number;
  /** 0 for `legacy`, as declared for `large` (1 for 5.0). */
  formatVersion: number;
  pointerSize: 4 | 8;
  littleEndian: boolean;
  /** Blender version that wrote the file, e.g. 304 for 3.4, 500 for 5.0. */
  version: number;
}

/** Bytes to read to be sure the whole header is there. */
export const MAX_HEADER_BYTES = 17;
const MAGIC = 'BLENDER';
const LEGACY = /^BLENDER([_-])([vV])(\d{3})/;
const LARGE = /^BLENDER(\d{2})-(\d{2})([vV])(\d{4})/;

/** The header's first bytes as text. */
function headerText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, MAX_HEADER_BYTES)).toString('latin1');
}

/** Whether `bytes` start with the `BLENDER` every .blend header starts with. */
export function hasBlendMagic(bytes: Uint8Array): boolean {
  return headerText(bytes).startsWith(MAGIC);
}

/** The fields of the header at the start of `bytes`; null when they spell no header layout at all. */
export function readHeaderFields(bytes: Uint8Array): HeaderFields | null {
  const text = headerText(bytes);
  const legacy = LEGACY.exec(text);
  if (legacy) {
    return { layout: 'legacy', headerSize: 12, formatVersion: 0, pointerSize: legacy[1] === '_' ? 4 : 8, littleEndian: legacy[2] === 'v', version: Number(legacy[3]) };
  }
  const large = LARGE.exec(text);
  if (large) {
    return { layout: 'large', headerSize: Number(large[1]), formatVersion: Number(large[2]), pointerSize: 8, littleEndian: large[3] === 'v', version: Number(large[4]) };
  }
  return null;
}

/**
 * Parse the header from the first bytes of the decompressed content. Throws a BlendFileError naming
 * `path` when the bytes are not a .blend or come from a format this reader does not know.
 */
export function parseBlendHeader(bytes: Buffer, path: string): BlendHeader {
  const text = headerText(bytes);
  if (!text.startsWith(MAGIC)) {
    if (MAGIC.startsWith(text)) throw truncatedError(path, 'it ends inside its header');
    throw new BlendFileError('not-blend', path, `${path} is not a Blender file (it does not start with a .blend header). Choose the scene's .blend file.`);
  }
  const fields = readHeaderFields(bytes);
  if (fields?.layout === 'legacy') {
    const { pointerSize, littleEndian, version } = fields;
    return { formatVersion: 0, headerSize: 12, pointerSize, littleEndian, version, blockHeaderSize: pointerSize === 4 ? 20 : 24 };
  }
  if (fields?.layout === 'large' && fields.formatVersion === 1 && fields.headerSize >= 17) {
    return { formatVersion: 1, headerSize: fields.headerSize, pointerSize: 8, littleEndian: fields.littleEndian, version: fields.version, blockHeaderSize: 32 };
  }
  if (text.length < 12) throw truncatedError(path, 'it ends inside its header');
  throw new BlendFileError(
    'unsupported',
    path,
    `${path} was saved in a .blend format this version of Renderdrop does not know (header "${text.replace(/[^\x20-\x7e]/g, '?')}"). Update Renderdrop, or save the scene from an older Blender.`,
  );
}
