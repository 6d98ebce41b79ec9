import { describe, expect, it } from 'vitest';
import { estimatedTookText, estimateRangeText, estimateReviewText, renderClockOf, renderTimingOf } from '../../../src/shared/render';
import type { Job } from '../../../src/shared/api';

describe("the node's estimate in words", () => {
  it('says the command line and review forms with the range', () => {
    const e = { seconds: 42 * 60, low: 35 * 60, high: 50 * 60 };
    expect(estimateRangeText(e)).toBe('about 42 min, likely 35–50 min');
    expect(estimateReviewText(e)).toBe('About 42 min (likely 35–50)');
  });

  it('names each unit when the range crosses one', () => {
    const e = { seconds: 70, low: 50, high: 100 };
    expect(estimateRangeText(e)).toBe('about 1 min, likely 50 s–2 min');
    expect(estimateReviewText(e)).toBe('About 1 min (likely 50 s–2 min)');
    expect(estimateRangeText({ seconds: 3 * 3600, low: 2.6 * 3600, high: 3.4 * 3600 })).toBe('about 3 h, likely 2.5–3.5 h');
  });

  it('says no range when its ends round to the same time', () => {
    expect(estimateReviewText({ seconds: 1.2, low: 1, high: 1.4 })).toBe('About 1 s');
    expect(estimateRangeText({ seconds: 1.2, low: 1, high: 1.4 })).toBe('about 1 s');
  });

  it('sets a finished job against its estimate', () => {
    expect(estimatedTookText(42 * 60, 45 * 60)).toBe('Estimated 42 min, took 45 min');
  });
});

describe('the time left of a job the node estimates from its frames', () => {
  const job = (estimate: unknown) =>
    ({
      id: 'j',
      status: 'rendering',
      createdAt: '2026-11-29T03:00:00.000Z',
      updatedAt: '2026-11-29T03:01:00.000Z',
      progress: { completedFrames: 2, totalFrames: 64 },
      timeline: [{ status: 'rendering', at: '2026-11-29T03:00:00.000Z' }],
      estimate,
    }) as unknown as Job;

  it("takes the node's time left (read along the shot) over the job's plain frame rate, counting it down from the read", () => {
    const now = Date.parse('2026-11-29T03:01:00.000Z');
    const read = renderTimingOf(job({ seconds: 600, low: 500, high: 700, basis: 'frames' }), null, now);
    expect(renderClockOf(read, now)).toMatchObject({ phase: 'rendering', leftSeconds: 600 });
    expect(renderClockOf(read, now + 30_000)).toMatchObject({ phase: 'rendering', leftSeconds: 570 });
  });

  it('keeps the frame rate without one, or with an estimate made before Start', () => {
    const now = Date.parse('2026-11-29T03:01:00.000Z');
    expect(renderClockOf(renderTimingOf(job(undefined)), now)).toMatchObject({ leftSeconds: 1860 });
    expect(renderClockOf(renderTimingOf(job({ seconds: 600, low: 500, high: 700, basis: 'sample' })), now)).toMatchObject({ leftSeconds: 1860 });
  });
});
