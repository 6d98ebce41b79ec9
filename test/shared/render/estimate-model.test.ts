import { describe, expect, it } from 'vitest';
import { estimateWithModel, frameSecondsAt, pixelSecondsAt, renderTargetFrom, type EstimateModel } from '../../../src/shared/render';

const model: EstimateModel = {
  engine: 'CYCLES',
  fixedSeconds: 0.5,
  pixelSeconds: [
    { pixels: 10_000, seconds: 0.01 },
    { pixels: 1_000_000, seconds: 1 },
  ],
  perPixelSample: 1e-8,
  along: [
    { frame: 1, fixed: 0.5, pixels: 1 },
    { frame: 50, fixed: 1, pixels: 1 },
    { frame: 100, fixed: 1.5, pixels: 2 },
  ],
  onceSeconds: 2,
  spread: 0.3,
  measuredPixels: 1920 * 1080,
  measuredUnits: 1920 * 1080 * 128,
  parallel: 1,
};

const analysis = { engine: 'CYCLES', resolution: [1920, 1080], resolutionPercentage: 50, samples: 128, totalFrames: 100, frameStart: 1, frameEnd: 100, frameStep: 1 };

describe("a node's estimate model", () => {
  it('prices a frame as fixed + its pixels + per pixel-sample', () => {
    expect(frameSecondsAt(model, 100, 100, 10)).toBeCloseTo(0.5 + 0.01 + 0.001, 9);
    expect(frameSecondsAt({ ...model, perPixelSample: 0 }, 100, 100, null)).toBeCloseTo(0.51, 9);
  });

  it('reads what pixels cost between the sizes measured, from nothing at none, beyond the largest on the last slope', () => {
    const points = [
      { pixels: 100, seconds: 1 },
      { pixels: 300, seconds: 2 },
      { pixels: 500, seconds: 2.5 },
    ];
    expect(pixelSecondsAt(points, 0)).toBe(0);
    expect(pixelSecondsAt(points, 50)).toBeCloseTo(0.5, 9);
    expect(pixelSecondsAt(points, 200)).toBeCloseTo(1.5, 9);
    expect(pixelSecondsAt(points, 400)).toBeCloseTo(2.25, 9);
    expect(pixelSecondsAt(points, 900)).toBeCloseTo(3.5, 9);
    expect(pixelSecondsAt([{ pixels: 100, seconds: 1 }], 300)).toBeCloseTo(3, 9);
    expect(pixelSecondsAt([], 300)).toBe(0);
  });

  it('sums the frames, each part weighted along the shot, over the renders that share them, plus what a render pays once', () => {
    const grows = frameSecondsAt(model, 960, 540, 128) - 0.5;
    const one = estimateWithModel(model, { engine: null, frames: [1, 50, 100], width: 960, height: 540, samples: 128 })!;
    expect(one.seconds).toBeCloseTo(2 + 0.5 * (0.5 + 1 + 1.5) + grows * (1 + 1 + 2), 1);
    const two = estimateWithModel({ ...model, parallel: 2 }, { engine: null, frames: [1, 50, 100], width: 960, height: 540, samples: 128 })!;
    expect(two.seconds).toBeCloseTo(2 + (one.seconds - 2) / 2, 1);
    expect(one.low).toBeLessThan(one.seconds);
    expect(one.high).toBeGreaterThan(one.seconds);
    const between = estimateWithModel(model, { engine: null, frames: [75], width: 960, height: 540, samples: 128 })!;
    expect(between.seconds).toBeCloseTo(2 + 0.5 * 1.25 + grows * 1.5, 2);
  });

  it('has none for another engine or no frames', () => {
    expect(estimateWithModel(model, { engine: 'BLENDER_EEVEE', frames: [1], width: 10, height: 10, samples: 1 })).toBeNull();
    expect(estimateWithModel(model, { engine: null, frames: [], width: 10, height: 10, samples: 1 })).toBeNull();
  });

  it('reads what a review asks for: frames typed in, pixels as Blender sizes them, samples, and a changed engine only', () => {
    expect(renderTargetFrom({ frameRanges: ['1-3', '10'], resolutionPercentage: 33, sampleCount: 64, renderEngine: 'CYCLES' }, analysis)).toEqual({ engine: null, frames: [1, 2, 3, 10], width: 633, height: 356, samples: 64 });
    expect(renderTargetFrom({}, analysis)).toMatchObject({ engine: null, width: 960, height: 540, samples: 128 });
    expect(renderTargetFrom({}, analysis)!.frames).toHaveLength(100);
    expect(renderTargetFrom({ renderEngine: 'BLENDER_EEVEE' }, analysis)!.engine).toBe('BLENDER_EEVEE');
    expect(renderTargetFrom({ frameRanges: ['9-x'] }, analysis)).toBeNull();
    expect(renderTargetFrom({}, { resolution: [1, 1] })).toBeNull();
  });
});
