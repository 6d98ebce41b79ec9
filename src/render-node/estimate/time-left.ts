import { interpolateAt, rangeAround, relativeSpread } from '../../shared/render';
import type { TimeRange } from './sample-model';

/**
 * The time left of a render from the frames it has done: each frame left costs what the done frames
 * around it cost (read between them along the shot, so a shot whose frames get dearer toward its end
 * is counted as such once the spread order has rendered frames there), and Blender's seconds are turned
 * into the render's own time by how long it has rendered per second of frames done (what saving takes,
 * and the workers sharing the frames: `renderedSeconds`, from its start to its latest frame). The time
 * since the latest frame counts down, never below the frames after the one in progress. Null before a
 * frame is done or after the last.
 */
export function timeLeftFromFrames(
  done: readonly { frame: number; seconds: number }[],
  planned: readonly number[],
  clock: { renderedSeconds: number | null; sinceLastFrame: number },
): TimeRange | null {
  const timed = done.filter((f) => f.seconds > 0).sort((a, b) => a.frame - b.frame);
  const doneSet = new Set(done.map((f) => f.frame));
  const left = planned.filter((f) => !doneSet.has(f));
  if (timed.length === 0 || left.length === 0) return null;
  const doneSeconds = timed.reduce((s, f) => s + f.seconds, 0);
  const rendered = clock.renderedSeconds;
  const pace = rendered !== null && rendered > 0 ? Math.min(3, Math.max(0.02, rendered / doneSeconds)) : 1;
  const whole = left.reduce((s, frame) => s + interpolateAt(timed, frame), 0) * pace;
  const total = Math.max(whole - Math.max(0, clock.sinceLastFrame), (whole * (left.length - 1)) / left.length);
  const margin = 0.05 + 0.5 * relativeSpread(timed.map((f) => f.seconds)) * Math.sqrt(left.length / planned.length) + 0.3 / Math.sqrt(timed.length) * (left.length / planned.length);
  return rangeAround(total, margin);
}
