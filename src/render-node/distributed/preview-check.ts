import { open } from 'node:fs/promises';
import { checkImageFile } from '../../node-common/images';

/** Largest preview of a frame a worker may send (a 512 px PNG is far smaller). */
export const MAX_PREVIEW_BYTES = 4 * 1024 * 1024;
/** Largest side of a preview in pixels (workers make them at most 512 px wide and high). */
export const MAX_PREVIEW_SIDE = 1024;

/**
 * Why a preview a worker sent must not be kept, or null when it may: it must be a whole PNG no larger
 * than {@link MAX_PREVIEW_SIDE} on either side, since the app shows it as it is.
 */
export async function previewProblem(path: string): Promise<string | null> {
  const check = await checkImageFile(path).catch(() => null);
  if (!check || check.status === 'unknown') return 'it is not a PNG image';
  if (check.status === 'incomplete') return `it is not a whole image (${check.reason})`;
  if (check.format !== 'PNG') return `it is a ${check.format} file, not PNG`;
  const header = Buffer.alloc(24);
  const file = await open(path, 'r');
  try {
    await file.read(header, 0, 24, 0);
  } finally {
    await file.close();
  }
  if (header.subarray(12, 16).toString('latin1') !== 'IHDR') return 'its header is missing';
  const width = header.readUInt32BE(16);
  const height = header.readUInt32BE(20);
  if (width === 0 || height === 0 || width > MAX_PREVIEW_SIDE || height > MAX_PREVIEW_SIDE) return `it is ${width} x ${height} pixels, more than a preview`;
  return null;
}
