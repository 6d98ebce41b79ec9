import { describe, expect, it } from 'vitest';
import { parseFrameRanges } from '../../../src/shared/frame-ranges';
import { framesInOrder, spreadOrder } from '../../../src/shared/render';

function range(start: number, end: number, step = 1): number[] {
  const out: number[] = [];
  for (let f = start; f <= end; f += step) out.push(f);
  return out;
}

/** The widest stretch of the shot (by frame number) between frames listed so far, after the first k. */
function widestGap(order: readonly number[], k: number): number {
  const done = order.slice(0, k).sort((a, b) => a - b);
  let widest = 0;
  for (let i = 1; i < done.length; i++) widest = Math.max(widest, done[i]! - done[i - 1]!);
  return widest;
}

describe('spread order', () => {
  it('starts with the first, the last and the middle, then the middles of the gaps level by level', () => {
    expect(spreadOrder(range(1, 9))).toEqual([1, 9, 5, 3, 7, 2, 4, 6, 8]);
    expect(spreadOrder(range(0, 16)).slice(0, 9)).toEqual([0, 16, 8, 4, 12, 2, 6, 10, 14]);
    expect(spreadOrder(range(1, 240)).slice(0, 5)).toEqual([1, 240, 120, 60, 180]);
  });

  it('keeps one and two frames as they are, and an empty list empty', () => {
    expect(spreadOrder([])).toEqual([]);
    expect(spreadOrder([7])).toEqual([7]);
    expect(spreadOrder([7, 8])).toEqual([7, 8]);
    expect(spreadOrder([3, 4, 5])).toEqual([3, 5, 4]);
  });

  it('spreads frames with a step by their numbers', () => {
    expect(spreadOrder(range(10, 90, 10))).toEqual([10, 90, 50, 30, 70, 20, 40, 60, 80]);
  });

  it('takes a gap\'s middle by frame number when the list has holes', () => {
    const frames = parseFrameRanges(['1-3,50,98-100']);
    expect(frames.ok && spreadOrder(frames.frames)).toEqual([1, 100, 50, 3, 98, 2, 99]);
  });

  it('lists every frame exactly once, for every length up to 300 and lists with steps and holes', () => {
    const lists: number[][] = [];
    for (let n = 0; n <= 300; n++) lists.push(range(1, n));
    lists.push(range(0, 1000, 7), range(5, 5000, 13), [0, 1, 2, 1000, 1001, 50000], [...range(1, 40), ...range(400, 410), ...range(9000, 9100, 3)]);
    for (const frames of lists) {
      const order = spreadOrder(frames);
      expect(order).toHaveLength(frames.length);
      expect(new Set(order).size).toBe(frames.length);
      expect([...order].sort((a, b) => a - b)).toEqual(frames);
    }
  });

  it('covers the shot early: after k frames the widest gap is at most twice the best possible (+1 for whole frames)', () => {
    for (const [start, end, step] of [...range(2, 130).map((n) => [1, n, 1]), [0, 600, 3], [1, 241, 1], [100, 1123, 1]] as const) {
      const frames = range(start, end, step);
      const order = spreadOrder(frames);
      const shot = frames[frames.length - 1]! - frames[0]!;
      for (let k = 2; k <= frames.length; k++) {
        const best = Math.ceil(shot / step / (k - 1)) * step;
        expect(widestGap(order, k), `${frames.length} frames, after ${k}`).toBeLessThanOrEqual(2 * best + step);
      }
    }
  });

  it('in order after an eighth of a 240-frame shot covers only its first eighth; spread leaves no gap wider than an eighth', () => {
    const frames = range(1, 240);
    expect(widestGap(spreadOrder(frames), 30)).toBeLessThanOrEqual(30);
    expect(widestGap(spreadOrder(frames), 9)).toBeLessThanOrEqual(30);
    expect(Math.max(...frames.slice(0, 30))).toBe(30);
  });

  it('orders 100,000 frames quickly', () => {
    const frames = range(0, 99_999);
    const started = performance.now();
    const order = spreadOrder(frames);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(new Set(order).size).toBe(100_000);
  });

  it('leaves frames in frame order when the order is sequential, and does not change the list it is given', () => {
    const frames = range(1, 20);
    expect(framesInOrder(frames, 'sequential')).toEqual(frames);
    expect(framesInOrder(frames, 'spread')).toEqual(spreadOrder(frames));
    expect(frames).toEqual(range(1, 20));
  });
});
