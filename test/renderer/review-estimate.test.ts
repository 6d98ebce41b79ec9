import { describe, expect, it } from 'vitest';
import type { SceneAnalysis } from '../../src/shared/api/analysis';
import { reviewEstimate } from '../../src/renderer/lib/review-estimate';
import type { ReviewForm } from '../../src/renderer/lib/review-form';

const analysis = {
  frameStart: 1,
  frameEnd: 48,
  frameStep: 1,
  totalFrames: 48,
  resolution: [1920, 1080],
  resolutionPercentage: 50,
  samples: 64,
} as unknown as SceneAnalysis;

// One earlier render: 48 frames at 960 x 540, 64 samples, in 96 s (2 s a frame).
const estimateFrom = { sceneName: 'shot.blend', renders: [{ shape: { frames: 48, width: 960, height: 540, samples: 64 }, normalizedSeconds: 96, endedAt: '2026-01-01T00:00:00Z' }] };
const data = { analysis, defaults: { colorManagementPreset: 'default' as const }, estimateFrom };
const form = (overrides: Partial<ReviewForm>): ReviewForm => ({ frames: '', samples: '', resolutionPercentage: '', camera: '', viewLayer: '', preset: 'default', outputFormat: '', ...overrides });

describe('the review estimate', () => {
  it('scales to the frame range typed in, not the scene range', () => {
    const estimate = reviewEstimate(data, form({ frames: '1-24' }));
    expect(estimate?.seconds).toBe(48);
    expect(estimate?.basedOn).toMatch(/scaled to 24 frames at 960 × 540, 64 samples$/);
  });

  it('scales to the resolution percentage and samples chosen', () => {
    const estimate = reviewEstimate(data, form({ frames: '1-24', resolutionPercentage: '100', samples: '128' }));
    expect(estimate?.seconds).toBe(48 * 4 * 2);
    expect(estimate?.basedOn).toMatch(/scaled to 24 frames at 1920 × 1080, 128 samples$/);
  });

  it('uses the scene range when no range is typed, and says nothing while a field is wrong or without earlier renders', () => {
    expect(reviewEstimate(data, form({}))?.seconds).toBe(96);
    expect(reviewEstimate(data, form({ frames: '1-' }))).toBeNull();
    expect(reviewEstimate({ ...data, estimateFrom: null }, form({ frames: '1-24' }))).toBeNull();
  });
});
