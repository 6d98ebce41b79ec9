import type { FrameOrder } from '../api';

/**
 * A job's frames in an order that covers the shot early: the first, the last, the one nearest the
 * middle, then the frames nearest the middles of the gaps left, level by level (every gap of one level
 * before any of the next), until every frame is listed exactly once. `frames` is sorted and distinct
 * (as frame ranges give them), with any steps or holes: a gap's middle is taken by frame number, so a
 * list with holes still spreads over the shot's time.
 */
export function spreadOrder(frames: readonly number[]): number[] {
  const n = frames.length;
  if (n <= 2) return [...frames];
  const order: number[] = [frames[0]!, frames[n - 1]!];
  // Gaps as pairs of indices (exclusive ends), taken first in, first out so levels stay in order.
  const gaps: number[] = [0, n - 1];
  for (let head = 0; head < gaps.length; head += 2) {
    const lo = gaps[head]!;
    const hi = gaps[head + 1]!;
    if (hi - lo < 2) continue;
    const mid = nearestInside(frames, lo, hi, (frames[lo]! + frames[hi]!) / 2);
    order.push(frames[mid]!);
    gaps.push(lo, mid, mid, hi);
  }
  return order;
}

/** The index strictly between `lo` and `hi` whose frame is nearest `target` (the lower one on a tie). */
function nearestInside(frames: readonly number[], lo: number, hi: number, target: number): number {
  let a = lo + 1;
  let b = hi - 1;
  while (a < b) {
    const m = (a + b) >> 1;
    if (frames[m]! < target) a = m + 1;
    else b = m;
  }
  if (a > lo + 1 && target - frames[a - 1]! <= frames[a]! - target) return a - 1;
  return a;
}

/** A job's frames (sorted) in the order they render: spread across the shot, or in frame order. */
export function framesInOrder(frames: readonly number[], order: FrameOrder): number[] {
  return order === 'spread' ? spreadOrder(frames) : [...frames];
}
