import { existsSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { Storage } from '../disk';

/** Folder of a job's per-frame previews, relative to the job's folder. */
export const PREVIEWS_DIR = 'previews';

/** The preview's file name of a frame file: its name with `.png` for its extension. */
export function framePreviewName(frameFile: string): string {
  const name = basename(frameFile);
  return `${name.slice(0, name.length - extname(name).length) || name}.png`;
}

/** A job's file path relative to its folder, as signed URLs address it. */
export function framePreviewRelPath(frameFile: string): string {
  return `${PREVIEWS_DIR}/${framePreviewName(frameFile)}`;
}

/**
 * The previews that exist for a job's recorded frames, by frame number (relative paths inside the
 * job's folder): made by the node's own renders, or sent by render workers with each frame. A frame
 * whose preview could not be made has none.
 */
export function framePreviews(storage: Storage, jobId: string, frames: readonly { frame: number; filePath: string }[]): Map<number, string> {
  const found = new Map<number, string>();
  const dir = storage.previewsDir(jobId);
  for (const f of frames) {
    if (existsSync(join(dir, framePreviewName(f.filePath)))) found.set(f.frame, framePreviewRelPath(f.filePath));
  }
  return found;
}

/**
 * The relative path of the preview of one of a job's latest frames (`frames` in the order they were
 * written; the last of them that has one); null when there is none.
 */
export function latestFramePreview(storage: Storage, jobId: string, frames: readonly { frame: number; filePath: string }[]): string | null {
  const dir = storage.previewsDir(jobId);
  for (let i = frames.length - 1; i >= Math.max(0, frames.length - 4); i--) {
    const f = frames[i]!;
    if (existsSync(join(dir, framePreviewName(f.filePath)))) return framePreviewRelPath(f.filePath);
  }
  return null;
}
