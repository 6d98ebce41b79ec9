import { countOf } from '../../shared/text';
import { MAX_FRAMES_PER_JOB, parseFrameRanges } from '../../shared/render';

/** What the frame range field says about its text, as the artist types. */
export type FrameRangeCheck = { ok: true; count: number; message: string; ranges: string[] } | { ok: false; message: string };

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
  return { ok: true, count: parsed.frames.length, message: `${countOf(parsed.frames.length, 'frame')} selected.`, ranges: [trimmed.replace(/\s+/g, '')] };
}
