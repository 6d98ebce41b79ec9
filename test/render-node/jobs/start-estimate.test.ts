import { describe, expect, it } from 'vitest';
import { estimateStart } from '../../../src/render-node/jobs/start-estimate';
import { averageFrameSeconds } from '../../../src/render-node/jobs/waiting-line';

const whole = (slots: number | null) => ({ slots, split: false });
const shared = (slots: number | null) => ({ slots, split: true });

describe('estimateStart', () => {
  it('starts at once when nothing is ahead and a slot or worker can take it', () => {
    expect(estimateStart([], whole(1))).toBe(0);
    expect(estimateStart([], shared(3))).toBe(0);
  });

  it('adds up the remaining time of the renders ahead on one slot', () => {
    // 10 frames left at 12 s, then 5 frames at 30 s: 120 + 150 s.
    expect(estimateStart([{ framesLeft: 10, secondsPerFrame: 12 }, { framesLeft: 5, secondsPerFrame: 30 }], whole(1))).toBe(270);
  });

  it('on whole-render slots, starts when the first slot frees once the renders ahead took theirs', () => {
    // Two slots: 100 s and 20 s left; the next render ahead (60 s) takes the slot free at 20 s (until 80 s): the first free is then 80 s.
    const ahead = [
      { framesLeft: 10, secondsPerFrame: 10 },
      { framesLeft: 2, secondsPerFrame: 10 },
      { framesLeft: 6, secondsPerFrame: 10 },
    ];
    expect(estimateStart(ahead, whole(2))).toBe(80);
    expect(estimateStart(ahead.slice(0, 2), whole(2))).toBe(20);
  });

  it('over workers that share the frames, divides the whole remaining time by the workers', () => {
    const ahead = [
      { framesLeft: 40, secondsPerFrame: 6 },
      { framesLeft: 20, secondsPerFrame: 3 },
    ];
    expect(estimateStart(ahead, shared(4))).toBe(75);
    expect(estimateStart(ahead, shared(1))).toBe(300);
  });

  it('counts a render that gives its slot up at its next frame for one frame only', () => {
    expect(estimateStart([{ framesLeft: 50, secondsPerFrame: 8, yieldsAtNextFrame: true }], whole(1))).toBe(8);
  });

  it('cannot say when a render ahead has no frame yet to time it by', () => {
    expect(estimateStart([{ framesLeft: 10, secondsPerFrame: 5 }, { framesLeft: 3, secondsPerFrame: null }], whole(1))).toBeNull();
    expect(estimateStart([{ framesLeft: 3, secondsPerFrame: null }], shared(2))).toBeNull();
  });

  it('cannot say when no slot or worker can take it', () => {
    expect(estimateStart([], shared(0))).toBeNull();
    expect(estimateStart([{ framesLeft: 1, secondsPerFrame: 1 }], shared(null))).toBeNull();
    expect(estimateStart([], whole(0))).toBeNull();
  });

  it('counts a render ahead with no frame left as done', () => {
    expect(estimateStart([{ framesLeft: 0, secondsPerFrame: null }], whole(1))).toBe(0);
  });
});

describe('averageFrameSeconds', () => {
  it('averages the frames rendered, leaving out frames found already written (0 s)', () => {
    expect(averageFrameSeconds([{ seconds: 10 }, { seconds: 0 }, { seconds: 20 }])).toBe(15);
    expect(averageFrameSeconds([{ seconds: 0 }])).toBeNull();
    expect(averageFrameSeconds([])).toBeNull();
  });
});
