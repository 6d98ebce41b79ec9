import type { RequeueRequest } from '../api';
import { describeFrames, parseFrameRanges } from '../frame-ranges';

/** The frames a requeue renders again, or why it cannot (400: the request is wrong; 409: nothing to render). */
export type RequeueSelection = { ok: true; frames: number[] } | { ok: false; status: 400 | 409; code: string; message: string };

/**
 * Which frames of a job a requeue renders again: the frames asked for, each of which must be one of the
 * job's `planned` frames, or (`failed: true`) every planned frame not `rendered` yet.
 */
export function selectRequeueFrames(request: RequeueRequest, planned: readonly number[], rendered: ReadonlySet<number>): RequeueSelection {
  if ('failed' in request) {
    const frames = planned.filter((f) => !rendered.has(f));
    if (frames.length > 0) return { ok: true, frames };
    return { ok: false, status: 409, code: 'nothing_to_requeue', message: 'Every frame of this job is rendered, so no frame failed. Name the frames to render again instead.' };
  }
  const parsed = parseFrameRanges(request.frames);
  if (!parsed.ok) return { ok: false, status: 400, code: 'invalid_frames', message: parsed.error };
  const inPlan = new Set(planned);
  const outside = parsed.frames.filter((f) => !inPlan.has(f));
  if (outside.length > 0) {
    const which = outside.length === 1 ? `Frame ${outside[0]} is` : `Frames ${describeFrames(outside)} are`;
    return { ok: false, status: 400, code: 'frames_not_in_job', message: `${which} not part of this job (it renders ${describeFrames(planned)}).` };
  }
  return { ok: true, frames: parsed.frames };
}

/** The request for frames typed by a person (`5,9-12` or `5 9-12`); null when nothing was typed. */
export function requeueRequestOf(text: string): RequeueRequest | null {
  const frames = text.split(/[\s,]+/).filter((part) => part !== '');
  return frames.length === 0 ? null : { frames };
}

/** The job history's words for a requeue: `requeued frames 5, 9-12`. */
export function requeueDetail(frames: readonly number[]): string {
  return `requeued ${frames.length === 1 ? 'frame' : 'frames'} ${describeFrames(frames)}`;
}
