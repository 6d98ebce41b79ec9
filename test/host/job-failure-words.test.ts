import { describe, expect, it } from 'vitest';
import { describeFailure, failedStepOf, toJobSummary } from '../../src/host/jobs/job-summary';
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
