import { describe, expect, it } from 'vitest';
import { estimateFromSample, ladderDone, ladderSamples, modelOf, smallSize, timeLeftFromFrames, estimateStats, type SampleMeasure } from '../../../src/render-node/estimate';
import { sampleFrames } from '../../../src/render-node/estimate/sample-model';
import { samplePlanOf, sampleSteps, type SampleScene } from '../../../src/render-node/estimate/sample-render';
import { interpolateAt, pixelSecondsAt } from '../../../src/shared/render';

/** How a frame's preparation (fixed part) and what grows with its pixels and samples change along a 100-frame shot: the first doubles, the second falls by a third. */
const fixedAt = (frame: number) => 1 + (frame - 1) / 99;
const grownAt = (frame: number) => 1.5 - (0.5 * (frame - 1)) / 99;
/** A frame of a scene that costs 20 s to prepare + 2e-5 s per pixel + 1e-6 s per pixel-sample, along the shot as above. */
const cost = (width: number, height: number, samples: number, frame: number) => 20 * fixedAt(frame) + (2e-5 * width * height + 1e-6 * width * height * samples) * grownAt(frame);

/** What a sample render of that scene (rendered at 320x180, 64 samples) measures, timed frame 52. */
function measured(): SampleMeasure {
  return {
    engine: 'CYCLES',
    startupSeconds: 1,
    warmupSeconds: 0.3,
    endSeconds: 0.1,
    small: { width: 80, height: 45, samples: 1, frames: [1, 100, 52].map((frame) => ({ frame, seconds: cost(80, 45, 1, frame) })) },
    mid: { width: 160, height: 90, samples: 1, frames: [{ frame: 52, seconds: cost(160, 90, 1, 52) }] },
    ends: { width: 320, height: 180, samples: 64, frames: [1, 100].map((frame) => ({ frame, seconds: cost(320, 180, 64, frame) })) },
    ladder: [1, 4, 16, 64].map((samples) => ({ width: 320, height: 180, samples, frames: [{ frame: 52, seconds: cost(320, 180, samples, 52) }] })),
  };
}

describe('the estimate from a sample render', () => {
  it('fits the fixed part, the cost by pixels and the cost per pixel-sample of the timed frame', () => {
    const model = modelOf(measured());
    expect(model.perPixelSample).toBeCloseTo(1e-6 * grownAt(52), 12);
    expect(model.fixedSeconds).toBeCloseTo(20 * fixedAt(52), 6);
    expect(pixelSecondsAt(model.pixelSeconds, 320 * 180)).toBeCloseTo(2e-5 * 320 * 180 * grownAt(52), 6);
    expect(pixelSecondsAt(model.pixelSeconds, 640 * 360)).toBeCloseTo(2e-5 * 640 * 360 * grownAt(52), 6);
    expect(model.onceSeconds).toBeCloseTo(0.4, 9);
    expect(model.along.find((p) => p.frame === 52)).toMatchObject({ fixed: 1, pixels: 1 });
  });

  it('weighs the fixed part and what grows with pixels and samples each by how it changes along the shot', () => {
    const along = modelOf(measured()).along;
    // Both are steadied a little toward the timed frame (noise); here the frames cost tens of seconds.
    expect(along.find((p) => p.frame === 100)!.fixed).toBeCloseTo(fixedAt(100) / fixedAt(52), 2);
    expect(along.find((p) => p.frame === 1)!.pixels).toBeCloseTo(grownAt(1) / grownAt(52), 2);
    expect(along.find((p) => p.frame === 100)!.pixels).toBeCloseTo(grownAt(100) / grownAt(52), 2);
  });

  it('prices other settings and frames, with its range around it', () => {
    const frames = Array.from({ length: 100 }, (_, i) => i + 1);
    for (const [width, height, samples, wanted] of [
      [320, 180, 64, frames],
      [480, 270, 128, frames],
      [160, 90, 16, frames],
      [320, 180, 256, frames.slice(0, 40)],
      [640, 360, 32, frames.slice(60)],
    ] as const) {
      const truth = 0.4 + wanted.reduce((s, f) => s + cost(width, height, samples, f), 0);
      const estimate = estimateFromSample(measured(), { engine: 'CYCLES', frames: wanted, width, height, samples })!;
      expect(Math.abs(estimate.seconds - truth) / truth).toBeLessThan(0.03);
      expect(estimate.low).toBeLessThan(estimate.seconds);
      expect(estimate.high).toBeGreaterThan(estimate.seconds);
    }
    const one = estimateFromSample(measured(), { engine: 'CYCLES', frames, width: 320, height: 180, samples: 64 })!;
    const shared = estimateFromSample(measured(), { engine: 'CYCLES', frames, width: 320, height: 180, samples: 64 }, 2)!;
    expect(Math.abs(shared.seconds - ((one.seconds - 0.4) / 2 + 0.4)) / shared.seconds).toBeLessThan(0.01);
  });

  it('takes a top level dearer per sample than the levels below as slowed by other work, and keeps one that is not', () => {
    const frames = Array.from({ length: 100 }, (_, i) => i + 1);
    const target = { engine: 'CYCLES', frames, width: 320, height: 180, samples: 64 };
    const truth = estimateFromSample(measured(), target)!.seconds;
    const slowed = measured();
    slowed.ladder[3]!.frames[0]!.seconds *= 1.6;
    expect(estimateFromSample(slowed, target)!.seconds / truth).toBeLessThan(1.25);
    // A sample a little dearer at the top (noise, up to 1.3 times) is measured as it is.
    const dearer = measured();
    const [b, top] = [dearer.ladder[2]!, dearer.ladder[3]!];
    const perSample = (b.frames[0]!.seconds - dearer.ladder[1]!.frames[0]!.seconds) / 12;
    top.frames[0]!.seconds = b.frames[0]!.seconds + 1.2 * perSample * 48;
    expect(modelOf(dearer).perPixelSample).toBeCloseTo((1.2 * perSample) / (320 * 180), 12);
  });

  it('reads a measure without the mid size and the ends as before: one weight along the shot', () => {
    const { mid: _mid, ends: _ends, ...older } = measured();
    const model = modelOf(older);
    for (const p of model.along) expect(p.pixels).toBe(p.fixed);
    expect(model.pixelSeconds.map((p) => p.pixels)).toEqual([80 * 45, 320 * 180]);
  });

  it('is surer at the measured size than far beyond it', () => {
    const frames = [1, 2, 3];
    const at = estimateFromSample(measured(), { engine: 'CYCLES', frames, width: 320, height: 180, samples: 64 })!;
    const beyond = estimateFromSample(measured(), { engine: 'CYCLES', frames, width: 1280, height: 720, samples: 1024 })!;
    expect(beyond.high / beyond.seconds).toBeGreaterThan(at.high / at.seconds);
  });

  it('counts the frames asked for where they are in the shot: the dear end costs more than the cheap start', () => {
    const m = measured();
    const start = estimateFromSample(m, { engine: 'CYCLES', frames: [1, 2, 3, 4, 5], width: 320, height: 180, samples: 64 })!;
    const end = estimateFromSample(m, { engine: 'CYCLES', frames: [96, 97, 98, 99, 100], width: 320, height: 180, samples: 64 })!;
    expect(end.seconds).toBeGreaterThan(start.seconds * 1.5);
  });

  it('has none for another engine than the one sampled', () => {
    expect(estimateFromSample(measured(), { engine: 'BLENDER_WORKBENCH', frames: [1], width: 10, height: 10, samples: null })).toBeNull();
  });

  it('prices an engine without samples by its pixels, between the sizes measured and beyond them on the last slope', () => {
    // Dearer per pixel at small sizes than at large ones (a frame's time grows less than its pixels).
    const wb = (w: number, h: number) => 0.1 + 2e-6 * (w * h) ** 0.85;
    const m: SampleMeasure = {
      engine: 'BLENDER_WORKBENCH',
      startupSeconds: 0.5,
      warmupSeconds: 0.2,
      endSeconds: 0,
      small: { width: 240, height: 135, samples: null, frames: [1, 24, 13].map((frame) => ({ frame, seconds: wb(240, 135) })) },
      mid: { width: 480, height: 270, samples: null, frames: [{ frame: 13, seconds: wb(480, 270) }] },
      ladder: [{ width: 960, height: 540, samples: null, frames: [{ frame: 13, seconds: wb(960, 540) }] }],
    };
    const frames = Array.from({ length: 24 }, (_, i) => i + 1);
    const error = (w: number, h: number) => {
      const truth = 0.2 + 24 * wb(w, h);
      return Math.abs(estimateFromSample(m, { engine: 'BLENDER_WORKBENCH', frames, width: w, height: h, samples: null })!.seconds - truth) / truth;
    };
    expect(error(960, 540)).toBeLessThan(0.01);
    expect(error(480, 270)).toBeLessThan(0.01);
    expect(error(720, 405)).toBeLessThan(0.02);
    expect(error(1440, 810)).toBeLessThan(0.07);
    // From the small and the render's size only, 150 % is priced further from the truth.
    const { mid: _mid, ...twoSizes } = m;
    const truth = 0.2 + 24 * wb(1440, 810);
    const two = estimateFromSample(twoSizes, { engine: 'BLENDER_WORKBENCH', frames, width: 1440, height: 810, samples: null })!.seconds;
    expect(Math.abs(two - truth) / truth).toBeGreaterThan(error(1440, 810) + 0.01);
  });

  it('samples the middle frame first as a warm-up, then the one after the middle, the first and the last', () => {
    expect(sampleFrames([1, 2, 3, 4, 5, 6, 7, 8])).toEqual({ warmup: 4, order: [4, 5, 1, 8], timed: 5, ends: [1, 8] });
    expect(sampleFrames([7])).toEqual({ warmup: 7, order: [7], timed: 7, ends: [] });
    expect(sampleFrames([1, 2])).toEqual({ warmup: 1, order: [1, 2], timed: 2, ends: [1] });
  });

  it('renders the spread frames small, then the timed frame at the render size with samples rising to the scene\'s', () => {
    expect(smallSize({ resolution: [1920, 1080], resolutionPercentage: 100, samples: 128 })).toEqual({ percentage: 25, samples: 1 });
    expect(smallSize({ resolution: [64, 36], resolutionPercentage: 100, samples: 4 })).toEqual({ percentage: 75, samples: 1 });
    expect(ladderSamples(128)).toEqual([1, 4, 16, 64, 128, 512, 2048]);
    expect(ladderSamples(64)).toEqual([1, 4, 16, 64, 256, 1024, 4096]);
    expect(ladderSamples(4096)).toEqual([1, 4, 16, 64, 256, 1024, 4096]);
    expect(ladderSamples(1)).toEqual([1, 4, 16, 64, 256, 1024, 4096]);
    expect(ladderSamples(null)).toEqual([null]);
  });

  it('stops the ladder once samples are measured and the next level would cost more than 2 % of the job', () => {
    const levels = [
      { samples: 1, seconds: 1 },
      { samples: 4, seconds: 2.5 },
    ];
    // 0.5 s a sample: a frame at 1024 samples costs about 512 s, one at 64 samples 32.5 s.
    expect(ladderDone(levels, 64, { frames: 100, samples: 1024 })).toBe(false);
    expect(ladderDone(levels, 64, { frames: 1, samples: 1024 })).toBe(true);
    expect(ladderDone(levels, null, { frames: 100, samples: 4 })).toBe(true);
    // Measured at the scene's samples: done; cheap and not yet measurable beyond them: go on.
    expect(ladderDone(levels, 16, { frames: 100, samples: 4 })).toBe(true);
    expect(ladderDone([{ samples: 1, seconds: 0.004 }, { samples: 4, seconds: 0.005 }], 16, { frames: 10, samples: 4 })).toBe(false);
    // Not yet measurable (0.05 s more than the first level): on while the next level, priced as four times the last, fits the budget.
    expect(ladderDone([{ samples: 1, seconds: 1 }, { samples: 4, seconds: 1.05 }], 16, { frames: 1000, samples: 1024 })).toBe(false);
    expect(ladderDone([{ samples: 1, seconds: 1 }, { samples: 4, seconds: 1.05 }], 16, { frames: 2, samples: 1024 })).toBe(true);
    // A level that also renders the first and last frames costs three frames: the share is of the whole level.
    expect(ladderDone(levels, 64, { frames: 5, samples: 1024 })).toBe(false);
    expect(ladderDone(levels, 64, { frames: 5, samples: 1024, perLevel: 3 })).toBe(true);
  });

  it('renders small with one sample, then half as wide, then the first, timed and last frames level by level, never one frame twice in a row', () => {
    const scene = { frames: Array.from({ length: 8 }, (_, i) => i + 1), resolution: [640, 360], resolutionPercentage: 100, samples: 16 } as unknown as SampleScene;
    const { steps, levelFrames, timedAt, beforeLadder } = sampleSteps(scene);
    expect(steps.slice(0, 4)).toEqual([4, 5, 1, 8].map((frame) => ({ frame, resolutionPercentage: 25, samples: 1 })));
    expect(steps[4]).toEqual({ frame: 5, resolutionPercentage: 50, samples: 1 });
    expect(levelFrames).toEqual([1, 5, 8]);
    expect(timedAt).toBe(1);
    expect(steps.slice(beforeLadder)).toEqual([1, 4, 16].flatMap((samples) => [1, 5, 8].map((frame) => ({ frame, resolutionPercentage: 100, samples }))).concat([64, 256, 1024, 4096].flatMap((samples) => [1, 5, 8].map((frame) => ({ frame, resolutionPercentage: 100, samples })))));
    for (let i = 1; i < steps.length; i++) expect(steps[i]!.frame).not.toBe(steps[i - 1]!.frame);
    // Too narrow to time pixels against the small size: the timed frame is also rendered wide.
    const narrow = sampleSteps({ ...scene, resolution: [160, 90] } as SampleScene);
    expect(narrow.between).toMatchObject({ narrow: true, width: 384, samples: 1 });
  });

  it("renders with the job's own plan, only smaller, to its own folder", () => {
    const base = { frames: [1, 2, 3], outputDir: '/jobs/a/frames', outputFormat: 'OPEN_EXR', camera: 'Shot', viewLayer: 'Beauty', denoise: { enabled: false, denoiser: null }, previewPath: '/jobs/a/preview.png', previewDir: '/jobs/a/previews', compositeOutputDir: '/jobs/a/composite' };
    const steps = [
      { frame: 2, resolutionPercentage: 25, samples: 4 },
      { frame: 3, resolutionPercentage: 100, samples: 1 },
    ];
    const plan = samplePlanOf(base, { steps, outputDir: '/tmp/sample', threads: null, scenePython: false });
    expect(plan).toMatchObject({ camera: 'Shot', viewLayer: 'Beauty', outputFormat: 'OPEN_EXR', frames: [2, 3], steps, outputDir: '/tmp/sample', previewPath: null });
    expect(plan.previewDir).toMatch(/^\/tmp\/sample/);
    expect(plan.compositeOutputDir).toMatch(/^\/tmp\/sample/);
    expect(samplePlanOf(null, { steps, outputDir: '/tmp/sample', threads: 2, scenePython: false })).toMatchObject({ outputFormat: 'PNG', threads: 2, frames: [2, 3] });
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
