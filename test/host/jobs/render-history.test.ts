import { describe, expect, it } from 'vitest';
import { RenderHistory, renderShapeOf } from '../../../src/host/jobs/render-history';
import type { Job } from '../../../src/shared/api/job';
import { sampleAnalysis as analysis } from '../../fixtures/analysis';

const base = { workspaceId: 'w', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T01:00:00Z' };

describe('renderShapeOf', () => {
  it('reads frames, pixels after the percentage and samples from the final configuration over the analysis', () => {
    const job: Job = {
      ...base,
      id: 'a',
      status: 'completed',
      analysis: analysis({ resolution: [1920, 1080], resolutionPercentage: 100, samples: 64, totalFrames: 250 }),
      finalConfig: { resolution: [1920, 1080], resolutionPercentage: 50, sampleCount: 32, frameRanges: ['1-10'] },
    };
    expect(renderShapeOf(job)).toEqual({ frames: 10, width: 960, height: 540, samples: 32 });
  });

  it('falls back to the analysis, and says nothing without a resolution', () => {
    expect(renderShapeOf({ ...base, id: 'b', status: 'validated', analysis: analysis({ resolution: [100, 50], resolutionPercentage: 200, samples: null, totalFrames: 3 }) })).toEqual({
      frames: 3,
      width: 200,
      height: 100,
      samples: null,
    });
    expect(renderShapeOf({ ...base, id: 'c', status: 'validated' })).toBeNull();
  });
});

describe('RenderHistory', () => {
  it('estimates a validated job from completed renders of the same scene only', () => {
    const history = new RenderHistory();
    const done: Job = {
      ...base,
      id: 'done',
      status: 'completed',
      normalizedSeconds: 100,
      finalConfig: { resolution: [100, 100], resolutionPercentage: 100, sampleCount: 10, frameRanges: ['1-10'] },
    };
    history.record(done, 'shot.blend', '2026-01-01T01:00:00Z');
    history.record({ ...done, id: 'failed', status: 'failed' }, 'shot.blend', null);
    const waiting: Job = { ...base, id: 'next', status: 'validated', analysis: analysis({ resolution: [100, 100], resolutionPercentage: 100, samples: 20, totalFrames: 5 }) };
    expect(history.estimate(waiting, 'shot.blend')).toMatchObject({ seconds: 100, renders: 1 });
    expect(history.estimate(waiting, 'other.blend')).toBeNull();
  });
});
