import { describe, expect, it } from 'vitest';
import { estimateFromSample, fitCost, largeSize, smallSize, timeLeftFromFrames, estimateStats, type SampleMeasure } from '../../../src/render-node/estimate';
import { interpolateAt, sampleFrames } from '../../../src/render-node/estimate/sample-model';

/** A scene whose frame costs 0.2 s + 1e-6 s per pixel-sample, twice as dear at its end as at its start. */
function measured(): SampleMeasure {
  const cost = (units: number, frame: number) => (0.2 + 1e-6 * units) * (1 + (frame - 1) / 99);
  const small = 80 * 45 * 8;
  const large = 160 * 90 * 64;
  return {
    engine: 'CYCLES',
    startupSeconds: 1,
    warmupSeconds: 0.3,
    small: { width: 80, height: 45, samples: 8, frames: [1, 100, 51].map((frame) => ({ frame, seconds: cost(small, frame) })) },
    mid: { width: 80, height: 45, samples: 8, frames: [{ frame: 51, seconds: cost(small, 51) }] },
    large: { width: 160, height: 90, samples: 64, frames: [{ frame: 51, seconds: cost(large, 51) }] },
  };
}

describe('the estimate from a sample render', () => {
  it('fits fixed + per pixel-sample cost from the frame timed at two sizes', () => {
    const fit = fitCost(measured());
    const along = 1 + 50 / 99;
    expect(fit.fixed).toBeCloseTo(0.2 * along, 5);
    expect(fit.perUnit).toBeCloseTo(1e-6 * along, 9);
  });

  it('scales to the target settings and frames, with its range around it', () => {
    const frames = Array.from({ length: 100 }, (_, i) => i + 1);
    const truth = 0.3 + frames.reduce((s, f) => s + (0.2 + 1e-6 * 320 * 180 * 128) * (1 + (f - 1) / 99), 0);
    const estimate = estimateFromSample(measured(), { engine: 'CYCLES', frames, width: 320, height: 180, samples: 128 })!;
    expect(Math.abs(estimate.seconds - truth) / truth).toBeLessThan(0.03);
    expect(estimate.low).toBeLessThan(estimate.seconds);
    expect(estimate.high).toBeGreaterThan(estimate.seconds);
    const halved = estimateFromSample(measured(), { engine: 'CYCLES', frames, width: 320, height: 180, samples: 128 }, 2)!;
    expect(halved.seconds).toBeCloseTo(estimate.seconds / 2, -1);
  });

  it('counts the frames asked for where they are in the shot: the dear end costs more than the cheap start', () => {
    const m = measured();
    const start = estimateFromSample(m, { engine: 'CYCLES', frames: [1, 2, 3, 4, 5], width: 320, height: 180, samples: 64 })!;
    const end = estimateFromSample(m, { engine: 'CYCLES', frames: [96, 97, 98, 99, 100], width: 320, height: 180, samples: 64 })!;
    expect(end.seconds).toBeGreaterThan(start.seconds * 1.6);
  });

  it('has none for another engine than the one sampled', () => {
    expect(estimateFromSample(measured(), { engine: 'BLENDER_WORKBENCH', frames: [1], width: 10, height: 10, samples: null })).toBeNull();
  });

  it('samples the middle frame first as a warm-up, then the first, last and the one after the middle', () => {
    expect(sampleFrames([1, 2, 3, 4, 5, 6, 7, 8])).toEqual({ warmup: 4, order: [4, 1, 8, 5], timed: 5 });
    expect(sampleFrames([7])).toEqual({ warmup: 7, order: [7], timed: 7 });
  });

  it('sizes the sample small, and the larger size up to about a second a frame', () => {
    expect(smallSize({ resolution: [1920, 1080], resolutionPercentage: 100, samples: 128 })).toEqual({ percentage: 25, samples: 32 });
    expect(smallSize({ resolution: [64, 36], resolutionPercentage: 100, samples: 4 })).toEqual({ percentage: 75, samples: 1 });
    expect(largeSize({ percentage: 25, samples: 32 }, 0.05)).toEqual({ percentage: 50, samples: 80 });
    expect(largeSize({ percentage: 25, samples: 32 }, 2)).toEqual({ percentage: 50, samples: 32 });
    expect(largeSize({ percentage: 25, samples: null }, 0.01)).toEqual({ percentage: 177, samples: null });
    expect(largeSize({ percentage: 50, samples: 80 }, 0.5, false)).toEqual({ percentage: 50, samples: 320 });
  });

  it('reads values between timed frames on straight lines', () => {
    const points = [{ frame: 1, seconds: 1 }, { frame: 11, seconds: 3 }];
    expect(interpolateAt(points, 6)).toBe(2);
    expect(interpolateAt(points, 0)).toBe(1);
    expect(interpolateAt(points, 20)).toBe(3);
  });
});

describe('the time left from the frames done', () => {
  const cost = (f: number) => 1 + f / 10;
  const planned = Array.from({ length: 64 }, (_, i) => i + 1);

  it('holds when frames get dearer along the shot, from frames spread across it', () => {
    const spread = [1, 64, 32, 16, 48, 8, 24, 40, 56].map((frame) => ({ frame, seconds: cost(frame) }));
    const truth = planned.filter((f) => !spread.some((d) => d.frame === f)).reduce((s, f) => s + cost(f), 0);
    const left = timeLeftFromFrames(spread, planned, { renderedSeconds: null, sinceLastFrame: 0 })!;
    expect(Math.abs(left.seconds - truth) / truth).toBeLessThan(0.02);
  });

  it('turns Blender seconds into the render own time (saving, workers sharing the frames)', () => {
    const done = [1, 64, 32].map((frame) => ({ frame, seconds: cost(frame) }));
    const sum = done.reduce((s, f) => s + f.seconds, 0);
    const plain = timeLeftFromFrames(done, planned, { renderedSeconds: sum, sinceLastFrame: 0 })!;
    const shared = timeLeftFromFrames(done, planned, { renderedSeconds: sum / 2, sinceLastFrame: 0 })!;
    expect(shared.seconds).toBeCloseTo(plain.seconds / 2, -1);
    const later = timeLeftFromFrames(done, planned, { renderedSeconds: sum, sinceLastFrame: 3 })!;
    expect(later.seconds).toBe(plain.seconds - 3);
  });

  it('has none before the first frame or after the last', () => {
    expect(timeLeftFromFrames([], planned, { renderedSeconds: null, sinceLastFrame: 0 })).toBeNull();
    expect(timeLeftFromFrames(planned.map((frame) => ({ frame, seconds: 1 })), planned, { renderedSeconds: null, sinceLastFrame: 0 })).toBeNull();
  });
});

describe('how right the estimates have been', () => {
  it('counts, and gives the median and worst error and the share within 20 %', () => {
    const stats = estimateStats([
      { given: { seconds: 100 }, tookSeconds: 100 },
      { given: { seconds: 110 }, tookSeconds: 100 },
      { given: { seconds: 50 }, tookSeconds: 100 },
      { given: null, tookSeconds: 100 },
    ]);
    expect(stats).toEqual({ count: 3, medianError: 0.1, worstError: 0.5, within20: 2 / 3 });
    expect(estimateStats([])).toEqual({ count: 0, medianError: null, worstError: null, within20: null });
  });
});
