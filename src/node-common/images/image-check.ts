import { open } from 'node:fs/promises';
import { fileBytes, type RandomAccessBytes } from './random-access-bytes';
import { checkExr } from './check-exr';
import { checkPng } from './check-png';
import { checkTiff } from './check-tiff';
import { checkHdr, checkIris, checkTga } from './check-run-length';
import { checkBmp, checkCineon, checkDpx, checkEndMarker, checkWebp } from './check-sized';
import type { StructureProblem } from './structure-problem';

/**
 * Whether an image file is whole. `complete`: its structure is intact to the end; `incomplete`: it is
 * cut short or damaged (`reason` says where); `unknown`: not a format this node can check.
 */
export type ImageCheck =
  | { status: 'complete'; format: string }
  | { status: 'incomplete'; format: string | null; reason: string }
  | { status: 'unknown' };

interface FormatCheck {
  format: string;
  matches: (head: Buffer) => boolean;
  check: (source: RandomAccessBytes, head: Buffer) => Promise<StructureProblem>;
}

const startsWith = (head: Buffer, bytes: number[]) => bytes.every((b, i) => head[i] === b);

/**
 * The formats Blender writes, told apart by their first bytes. Targa has no signature, so it is tried
 * last, only for files named `.tga`.
 */
const FORMATS: FormatCheck[] = [
  { format: 'PNG', matches: (h) => startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), check: checkPng },
  { format: 'JPEG', matches: (h) => startsWith(h, [0xff, 0xd8, 0xff]), check: (s) => checkEndMarker(s, 'JPEG') },
  { format: 'OPEN_EXR', matches: (h) => startsWith(h, [0x76, 0x2f, 0x31, 0x01]), check: checkExr },
  { format: 'TIFF', matches: (h) => startsWith(h, [0x49, 0x49, 0x2a, 0x00]) || startsWith(h, [0x4d, 0x4d, 0x00, 0x2a]), check: checkTiff },
  { format: 'BMP', matches: (h) => startsWith(h, [0x42, 0x4d]), check: checkBmp },
  { format: 'WEBP', matches: (h) => startsWith(h, [0x52, 0x49, 0x46, 0x46]) && h.subarray(8, 12).toString('latin1') === 'WEBP', check: checkWebp },
  { format: 'DPX', matches: (h) => ['SDPX', 'XPDS'].includes(h.subarray(0, 4).toString('latin1')), check: checkDpx },
  { format: 'CINEON', matches: (h) => startsWith(h, [0x80, 0x2a, 0x5f, 0xd7]) || startsWith(h, [0xd7, 0x5f, 0x2a, 0x80]), check: checkCineon },
  { format: 'HDR', matches: (h) => h.subarray(0, 2).toString('latin1') === '#?', check: checkHdr },
  { format: 'IRIS', matches: (h) => startsWith(h, [0x01, 0xda]), check: checkIris },
  {
    format: 'JPEG2000',
    matches: (h) => startsWith(h, [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20]) || startsWith(h, [0xff, 0x4f, 0xff, 0x51]),
    check: (s) => checkEndMarker(s, 'JPEG 2000'),
  },
];
const TARGA: FormatCheck = { format: 'TARGA', matches: () => true, check: checkTga };

/** Signatures of variants this node does not read the structure of (BigTIFF): such files count when not empty. */
const UNCHECKED = [
  [0x49, 0x49, 0x2b, 0x00],
  [0x4d, 0x4d, 0x00, 0x2b],
];

/** Extensions Blender gives the image formats above. */
const IMAGE_EXTENSIONS = /\.(png|jpe?g|exr|tiff?|bmp|webp|dpx|cin|hdr|rgb|sgi|jp2|j2c|tga)$/i;

/**
 * Check that the image in `source` is whole. `name` (the file name) tells a Targa file, which has no
 * signature, and an image file whose header is missing from one of unknown kind.
 */
export async function checkImage(source: RandomAccessBytes, name: string): Promise<ImageCheck> {
  if (source.size === 0) return { status: 'incomplete', format: null, reason: 'the file is empty' };
  const head = await source.read(0, 32);
  if (UNCHECKED.some((signature) => startsWith(head, signature))) return { status: 'unknown' };
  const known = FORMATS.find((f) => f.matches(head)) ?? (/\.tga$/i.test(name) ? TARGA : null);
  if (!known) {
    return IMAGE_EXTENSIONS.test(name) ? { status: 'incomplete', format: null, reason: 'its header is missing or damaged' } : { status: 'unknown' };
  }
  let problem: StructureProblem;
  try {
    problem = await known.check(source, head);
  } catch (err) {
    if (err instanceof RangeError) problem = 'its header is cut short';
    else throw err;
  }
  return problem === null ? { status: 'complete', format: known.format } : { status: 'incomplete', format: known.format, reason: problem };
}

/** Check the image file at `path` (see {@link checkImage}). */
export async function checkImageFile(path: string): Promise<ImageCheck> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    return await checkImage(fileBytes(handle, size), path);
  } finally {
    await handle.close();
  }
}
