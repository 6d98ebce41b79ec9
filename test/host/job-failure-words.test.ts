import { describe, expect, it } from 'vitest';
import { describeFailure, failedStepOf, toJobSummary, withFrameCounts } from '../../src/host/jobs/job-summary';
import { failedStepTitle } from '../../src/shared/contract/failed-step';
import type { Job } from '../../src/shared/api/job';

const job = (over: Partial<Job>): Job => ({
  id: '11111111-2222-3333-4444-555555555555',
  status: 'failed',
  workspaceId: 'w',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:01:00Z',
  ...over,
});

describe('failure words', () => {
  it('says a reason once, as one sentence, without a second full stop or an "Error:" lead-in', () => {
    expect(describeFailure({ name: 'RenderFailed', type: 'render', message: 'Blender stopped.' })).toBe('Blender stopped.');
    expect(describeFailure({ name: 'RenderFailed', type: 'render', message: 'Error: Blender stopped' })).toBe('Blender stopped.');
    expect(describeFailure({ name: 'OutOfMemory', type: 'render' })).toMatch(/^The render ran out of memory\./);
  });

  it('names the step that failed: validation before rendering began, render after, upload when the files never arrived whole', () => {
    expect(failedStepOf({ name: 'SceneUnreadable', type: 'scene' }, ['created', 'validating', 'failed'])).toBe('validation');
    expect(failedStepOf({ name: 'AnalysisFailed', type: 'blender' }, ['created', 'validating', 'failed'])).toBe('validation');
    expect(failedStepOf({ name: 'BlenderCrashed', type: 'blender' }, ['created', 'validated', 'booting', 'rendering', 'failed'])).toBe('render');
    expect(failedStepOf({ name: 'RenderFailed', type: 'render' }, [])).toBe('render');
    expect(failedStepOf({ name: 'UploadIncomplete', type: 'upload' }, [])).toBe('upload');
    expect(failedStepTitle('validation')).toBe('Validation failed');
  });

  it('gives a failed validation its step in the summary, not "Render failed"', () => {
    const summary = toJobSummary(
      job({
        failedReason: { name: 'SceneUnreadable', type: 'scene', message: 'Blender could not read shot.blend (Missing DNA block): it may be damaged or incomplete.' },
        timeline: [
          { status: 'created', at: '2026-01-01T00:00:00Z' },
          { status: 'validating', at: '2026-01-01T00:00:01Z' },
          { status: 'failed', at: '2026-01-01T00:00:05Z' },
        ],
      }),
      {},
    );
    expect(summary.failedStep).toBe('validation');
    expect(summary.failure).toBe('Blender could not read shot.blend (Missing DNA block): it may be damaged or incomplete.');
    expect(summary.failure).not.toMatch(/\.\.|`|\//);
  });

  it('has no step for a job that did not fail', () => {
    expect(toJobSummary(job({ status: 'completed' }), {}).failedStep).toBeNull();
  });
});

describe('times in the summary', () => {
  it('starts the clock when rendering begins, not when the job joined the line, and says it waits before', () => {
    const timeline = [
      { status: 'validated', at: '2026-01-01T00:00:00Z' },
      { status: 'booting', at: '2026-01-01T00:00:10Z' },
    ];
    const waiting = toJobSummary(job({ status: 'booting', timeline, waiting: { jobsAhead: 2 } }), {});
    expect(waiting).toMatchObject({ startedAt: '2026-01-01T00:00:10Z', renderingSince: null, waiting: { jobsAhead: 2 }, running: false });
    const rendering = toJobSummary(job({ status: 'rendering', timeline: [...timeline, { status: 'rendering', at: '2026-01-01T00:04:00Z' }], waiting: null }), { previous: waiting });
    expect(rendering).toMatchObject({ renderingSince: '2026-01-01T00:04:00Z', waiting: null });
  });

  it('notes when it saw a frame count rise, from a progress read or a job read, and keeps it otherwise', () => {
    const rendering = toJobSummary(job({ status: 'rendering', progress: { completedFrames: 2, totalFrames: 8 } }), {});
    expect(rendering.framesSeen).toBeNull();
    const t = Date.parse('2026-01-01T00:05:00Z');
    const third = withFrameCounts(rendering, { completedFrames: 3, totalFrames: 8 }, t);
    expect(third.framesSeen).toEqual({ firstAt: '2026-01-01T00:05:00.000Z', firstCount: 3, lastAt: '2026-01-01T00:05:00.000Z' });
    expect(withFrameCounts(third, { completedFrames: 3, totalFrames: 8 }, t + 5000).framesSeen).toEqual(third.framesSeen);
    const fourth = toJobSummary(job({ status: 'rendering', progress: { completedFrames: 4, totalFrames: 8 } }), { previous: third, now: t + 9000 });
    expect(fourth.framesSeen).toEqual({ firstAt: '2026-01-01T00:05:00.000Z', firstCount: 3, lastAt: '2026-01-01T00:05:09.000Z' });
  });
});
