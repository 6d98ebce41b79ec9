/**
 * Frame range expressions.
 *
 * Grammar (whitespace ignored): a list of items separated by commas, where an item is
 * `N` (one frame), `A-B` (A to B inclusive, A <= B) or `A-B/S` (every S-th frame from A to B).
 * Frames are integers from 0 to 1,048,574. `frameRanges` in a render config is an array of such
 * lists; the frames rendered are the sorted union of all of them.
 */

export const MAX_FRAME = 1_048_574;
export const MAX_FRAMES_PER_JOB = 100_000;

export type FrameRangeResult = { ok: true; frames: number[] } | { ok: false; error: string };

const ITEM = /^(\d+)(?:-(\d+)(?:\/(\d+))?)?$/;

/** Parse one or more frame range expressions into the sorted list of distinct frames. */
export function parseFrameRanges(expressions: readonly string[]): FrameRangeResult {
  const frames = new Set<number>();
  const items = expressions.flatMap((e) => e.split(','));
  if (items.every((i) => i.trim() === '')) return { ok: false, error: 'No frames given.' };
  for (const raw of items) {
    const item = raw.replace(/\s+/g, '');
    if (item === '') return { ok: false, error: `Empty item in "${expressions.join(',')}".` };
    const m = ITEM.exec(item);
    if (!m) return { ok: false, error: `"${raw.trim()}" is not a frame or range (use 12, 1-10 or 1-10/2).` };
    const start = Number(m[1]);
    const end = m[2] === undefined ? start : Number(m[2]);
    const step = m[3] === undefined ? 1 : Number(m[3]);
    if (start > MAX_FRAME || end > MAX_FRAME) return { ok: false, error: `Frame numbers go up to ${MAX_FRAME}.` };
    if (end < start) return { ok: false, error: `"${item}" ends before it starts.` };
    if (step < 1) return { ok: false, error: `"${item}" has a step below 1.` };
    for (let f = start; f <= end; f += step) {
      frames.add(f);
      if (frames.size > MAX_FRAMES_PER_JOB) return { ok: false, error: `More than ${MAX_FRAMES_PER_JOB} frames.` };
    }
  }
  return { ok: true, frames: [...frames].sort((a, b) => a - b) };
}

/** The frames of a scene's own range: start..end by step. */
export function sceneFrames(start: number, end: number, step: number): number[] {
  const out: number[] = [];
  for (let f = start; f <= end; f += Math.max(1, step)) out.push(f);
  return out;
}

/** Compact form of a sorted frame list, e.g. [1,2,3,5] -> "1-3,5". */
export function formatFrames(frames: readonly number[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < frames.length) {
    let j = i;
    while (j + 1 < frames.length && frames[j + 1] === frames[j]! + 1) j++;
    parts.push(i === j ? `${frames[i]}` : `${frames[i]}-${frames[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** Frames in any order as short ranges for people: `1-4, 7, 9-11`. */
export function describeFrames(frames: readonly number[]): string {
  return formatFrames([...new Set(frames)].sort((a, b) => a - b)).split(',').join(', ');
}
