import { countOf } from '../../shared/text';
import { describeFrames, MAX_FRAMES_PER_JOB, parseFrameRanges } from '../../shared/render';

/** What the frame range field says about its text, as the artist types. */
export type FrameRangeCheck = { ok: true; count: number; message: string; ranges: string[]; outside?: string } | { ok: false; message: string };

/**
 * Checks a frame range field (`1-10, 20, 30-40/2`; empty means the scene's own range) with the same
 * parser the render node uses, and says how many frames it selects or what is wrong.
 */
export function checkFrameRangeText(text: string, sceneDefault: string | null): FrameRangeCheck {
  const trimmed = text.trim();
  if (trimmed === '') {
    if (sceneDefault === null) return { ok: true, count: 0, message: "The scene's own frame range.", ranges: [] };
    const parsed = parseFrameRanges([sceneDefault]);
    return parsed.ok
      ? { ok: true, count: parsed.frames.length, message: `The scene's range (${sceneDefault}): ${countOf(parsed.frames.length, 'frame')}.`, ranges: [] }
      : { ok: true, count: 0, message: "The scene's own frame range.", ranges: [] };
  }
  const parsed = parseFrameRanges([trimmed]);
  if (!parsed.ok) return { ok: false, message: parsed.error };
  if (parsed.frames.length > MAX_FRAMES_PER_JOB) return { ok: false, message: `More than ${MAX_FRAMES_PER_JOB} frames.` };
  const outside = outsideScene(parsed.frames, sceneDefault);
  return { ok: true, count: parsed.frames.length, message: `${countOf(parsed.frames.length, 'frame')} selected.`, ranges: [trimmed.replace(/\s+/g, '')], ...(outside ? { outside } : {}) };
}

/** What to say when frames lie before the scene's first frame or after its last; null when none do. */
function outsideScene(frames: readonly number[], sceneRange: string | null): string | null {
  if (sceneRange === null) return null;
  const scene = parseFrameRanges([sceneRange]);
  if (!scene.ok || scene.frames.length === 0) return null;
  const first = Math.min(...scene.frames);
  const last = Math.max(...scene.frames);
  const out = frames.filter((f) => f < first || f > last);
  if (out.length === 0) return null;
  const which = out.length === 1 ? `Frame ${out[0]} is` : `${out.length} frames (${describeFrames(out).replace(/-/g, '–')}) are`;
  return `${which} outside the scene's range (${first}–${last}); Blender renders ${out.length === 1 ? 'it' : 'them'} all the same.`;
}
