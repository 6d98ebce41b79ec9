import { parseFrameRanges, sceneFrames } from '../../shared/render';
import { isPlainRecord } from '../../shared/plain-record';
import type { FrameView } from '../../shared/contract';

/** File types a browser shows in an <img>, by extension, with their MIME type. */
const VIEWABLE: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  bmp: 'image/bmp',
  gif: 'image/gif',
};

/** The MIME type of a file a browser can show, by its name; null for EXR, TIFF and the rest. */
export function viewableType(fileName: string): string | null {
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return VIEWABLE[ext] ?? null;
}

/** The frame number a rendered file's name carries (the last run of digits: `shot_0012.png` -> 12), or null. */
export function frameNumberOf(fileName: string): number | null {
  const base = fileName.replace(/\\/g, '/').split('/').pop() ?? '';
  const stem = base.replace(/\.[a-z0-9]+$/i, '');
  const digits = /(\d+)(?!.*\d)/.exec(stem)?.[1];
  return digits === undefined ? null : Number.parseInt(digits, 10);
}

/**
 * The frames a job renders: the final configuration's ranges, else the requested ones, else the
 * scene's own range from the analysis; empty when none of them says.
 */
export function plannedFrames(finalConfig: unknown, requestedConfig: unknown, analysis: unknown): number[] {
  for (const config of [finalConfig, requestedConfig]) {
    if (isPlainRecord(config) && Array.isArray(config.frameRanges) && config.frameRanges.every((r) => typeof r === 'string') && config.frameRanges.length > 0) {
      const parsed = parseFrameRanges(config.frameRanges);
      if (parsed.ok) return parsed.frames;
    }
  }
  if (isPlainRecord(analysis) && typeof analysis.frameStart === 'number' && typeof analysis.frameEnd === 'number') {
    const step = typeof analysis.frameStep === 'number' ? analysis.frameStep : 1;
    return sceneFrames(analysis.frameStart, analysis.frameEnd, step);
  }
  return [];
}

/** A rendered file the strip knows of: its path relative to the job's folder, and whether it is on disk. */
export interface KnownFile {
  relativePath: string;
  onDisk: boolean;
  /** Whether the server has a small preview of it. */
  hasPreview?: boolean;
}

/**
 * The strip's frames: every planned frame (and any frame a file names beyond them), `done` when a file
 * for it is known, else `pending` while the job is active and `missing` once it ended.
 */
export function frameViews(planned: readonly number[], files: readonly KnownFile[], ended: boolean): FrameView[] {
  const byFrame = new Map<number, KnownFile>();
  for (const file of files) {
    const frame = frameNumberOf(file.relativePath);
    if (frame === null) continue;
    const seen = byFrame.get(frame);
    if (!seen) byFrame.set(frame, file);
    else byFrame.set(frame, { relativePath: file.onDisk || !seen.onDisk ? file.relativePath : seen.relativePath, onDisk: seen.onDisk || file.onDisk, hasPreview: Boolean(seen.hasPreview || file.hasPreview) });
  }
  const frames = [...new Set([...planned, ...byFrame.keys()])].sort((a, b) => a - b);
  return frames.map((frame): FrameView => {
    const file = byFrame.get(frame);
    if (file) return { frame, state: 'done', fileName: file.relativePath, onDisk: file.onDisk, viewable: viewableType(file.relativePath) !== null, hasPreview: file.hasPreview ?? false };
    return { frame, state: ended ? 'missing' : 'pending', fileName: null, onDisk: false, viewable: false, hasPreview: false };
  });
}
