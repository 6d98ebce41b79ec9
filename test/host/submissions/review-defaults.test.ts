import { describe, expect, it } from 'vitest';
import { detectedConfig, fitToAnalysis, sceneRange } from '../../../src/host/submissions/review-defaults';
import { describeFailure, toJobSummary } from '../../../src/host/jobs/job-summary';
import { sampleAnalysis } from '../../fixtures/analysis';

describe('review defaults', () => {
  it('starts from what validation detected', () => {
    const analysis = sampleAnalysis({ frameStart: 1, frameEnd: 10, frameStep: 2, samples: 16 });
    expect(sceneRange(analysis)).toBe('1-10/2');
    expect(detectedConfig(analysis)).toMatchObject({ colorManagementPreset: 'default', frameRanges: ['1-10/2'], sampleCount: 16, resolutionPercentage: 100 });
  });

  it('fits remembered settings to the scene as it is now', () => {
    const analysis = sampleAnalysis({ cameras: ['Camera'], activeCamera: 'Camera' });
    const fitted = fitToAnalysis({ colorManagementPreset: 'aces', activeCamera: 'Gone', frameRanges: ['5-1'], sampleCount: 2 }, analysis);
    expect(fitted).toMatchObject({ colorManagementPreset: 'aces', activeCamera: 'Camera', frameRanges: ['1-3'], sampleCount: 2 });
  });
});

describe('job summaries', () => {
  it('says why a job failed in plain words', () => {
    expect(describeFailure({ name: 'SceneUnreadable', type: 'scene' })).toMatch(/could not open the scene/);
    expect(describeFailure({ name: 'WeirdThing', type: 'render' })).toBe('The farm gave this reason: weird thing.');
    expect(describeFailure({ name: 'X', type: 'y', message: 'Exactly this.' })).toBe('Exactly this.');
  });

  it('reads name, frames and times from the payload and its timeline', () => {
    const summary = toJobSummary(
      {
        id: '11111111-2222-3333-4444-555555555555',
        status: 'completed',
        workspaceId: 'w',
        createdAt: '2026-01-01T00:00:00Z',
        updatedAt: '2026-01-01T00:01:00Z',
        sceneFile: { fileName: 'shots/a.blend' },
        progress: { completedFrames: 2, totalFrames: 3 },
        timeline: [
          { status: 'created', at: '2026-01-01T00:00:00Z' },
          { status: 'booting', at: '2026-01-01T00:00:10Z' },
          { status: 'completed', at: '2026-01-01T00:00:50Z' },
        ],
      } as never,
      {},
    );
    expect(summary).toMatchObject({ fileName: 'a.blend', completedFrames: 3, totalFrames: 3, startedAt: '2026-01-01T00:00:10Z', endedAt: '2026-01-01T00:00:50Z' });
  });
});
