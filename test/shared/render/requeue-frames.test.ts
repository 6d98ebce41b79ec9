import { describe, expect, it } from 'vitest';
import { requeueRequestSchema } from '../../../src/shared/api';
import { requeueDetail, requeueRequestOf, selectRequeueFrames } from '../../../src/shared/render';

const planned = [1, 2, 3, 4, 5, 9, 10, 11, 12];

describe('which frames a requeue renders again', () => {
  it('takes frame range expressions of the job, in order, each once', () => {
    expect(selectRequeueFrames({ frames: ['5', '9-12'] }, planned, new Set(planned))).toEqual({ ok: true, frames: [5, 9, 10, 11, 12] });
    expect(selectRequeueFrames({ frames: ['3,1', '1-2'] }, planned, new Set())).toEqual({ ok: true, frames: [1, 2, 3] });
  });

  it('refuses frames that are not the job\'s, naming them and the job\'s frames (400)', () => {
    expect(selectRequeueFrames({ frames: ['7'] }, planned, new Set())).toEqual({ ok: false, status: 400, code: 'frames_not_in_job', message: 'Frame 7 is not part of this job (it renders 1-5, 9-12).' });
    expect(selectRequeueFrames({ frames: ['4-8', '13'] }, planned, new Set())).toMatchObject({ ok: false, status: 400, message: 'Frames 6-8, 13 are not part of this job (it renders 1-5, 9-12).' });
  });

  it('refuses what is not a frame expression in the words of the frame range parser (400)', () => {
    expect(selectRequeueFrames({ frames: ['5-2'] }, planned, new Set())).toEqual({ ok: false, status: 400, code: 'invalid_frames', message: '"5-2" ends before it starts.' });
    expect(selectRequeueFrames({ frames: ['x'] }, planned, new Set())).toMatchObject({ ok: false, code: 'invalid_frames' });
  });

  it('with failed: true takes every frame of the job not rendered, and says when there is none (409)', () => {
    expect(selectRequeueFrames({ failed: true }, planned, new Set([1, 2, 3, 9]))).toEqual({ ok: true, frames: [4, 5, 10, 11, 12] });
    expect(selectRequeueFrames({ failed: true }, planned, new Set(planned))).toMatchObject({ ok: false, status: 409, code: 'nothing_to_requeue' });
  });

  it('reads frames typed by a person, and words the history of the job', () => {
    expect(requeueRequestOf('5,9-12')).toEqual({ frames: ['5', '9-12'] });
    expect(requeueRequestOf(' 5  9-12, ')).toEqual({ frames: ['5', '9-12'] });
    expect(requeueRequestOf(' , ')).toBeNull();
    expect(requeueDetail([5, 9, 10, 11, 12])).toBe('requeued frames 5, 9-12');
    expect(requeueDetail([2])).toBe('requeued frame 2');
  });

  it('takes exactly one of the two request shapes', () => {
    expect(requeueRequestSchema.safeParse({ frames: ['5'] }).success).toBe(true);
    expect(requeueRequestSchema.safeParse({ failed: true }).success).toBe(true);
    for (const bad of [{}, { frames: [] }, { failed: false }, { frames: ['5'], failed: true }, { frames: [''] }]) expect(requeueRequestSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});
