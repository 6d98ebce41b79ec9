import { z } from 'zod';
import type { Downloads } from '../../shared/api';

/** How a render names its frame files: prefix, zero-padded frame number, extension. */
export interface FrameNaming {
  prefix: string;
  width: number;
  extension: string;
}

const NUMBERED = /^(.*?)(\d+)(\.[A-Za-z0-9]{2,5})$/;
const IMAGE_EXTENSIONS = /^\.(png|jpe?g|exr|tiff?|bmp|webp|dpx|cin|hdr|rgb|sgi|jp2|j2c|tga)$/i;

/** The naming of a frame file name (`shot_0007.exr`), with the frame it holds; null for other names. */
export function namingOf(fileName: string): { naming: FrameNaming; frame: number } | null {
  const m = NUMBERED.exec(fileName);
  if (!m || !IMAGE_EXTENSIONS.test(m[3]!)) return null;
  return { naming: { prefix: m[1]!, width: m[2]!.length, extension: m[3]! }, frame: Number(m[2]) };
}

/** The file name of `frame` under a naming (the number grows past the padding when it must). */
export function frameFileName(naming: FrameNaming, frame: number): string {
  return `${naming.prefix}${String(frame).padStart(naming.width, '0')}${naming.extension}`;
}

/** Whether a file name follows a naming, and which frame it holds. */
export function frameOfName(naming: FrameNaming, fileName: string): number | null {
  const parsed = namingOf(fileName);
  if (!parsed) return null;
  const { prefix, extension, width } = parsed.naming;
  if (prefix !== naming.prefix || extension.toLowerCase() !== naming.extension.toLowerCase()) return null;
  return width === naming.width || (width > naming.width && !fileName.slice(prefix.length).startsWith('0')) ? parsed.frame : null;
}

const frameKey = z.looseObject({ frame: z.number().int() });

/**
 * The frame files a server lists for a job, by frame: the number from the output's `frame` key when
 * the server adds one, else from the digits at the end of its name.
 */
export function listedFrames(downloads: Downloads): Map<number, string> {
  const found = new Map<number, string>();
  for (const item of downloads.frameOutputs) {
    const keyed = frameKey.safeParse(item);
    const frame = keyed.success ? keyed.data.frame : (namingOf(item.fileName)?.frame ?? null);
    if (frame !== null && !item.compositeNodeName) found.set(frame, item.fileName);
  }
  return found;
}
