import { describe, expect, it } from 'vitest';
import { MAX_FRAME, MAX_FRAMES_PER_JOB, formatFrames, parseFrameRanges, sceneFrames } from '../../../src/shared/frame-ranges';

const frames = (...expressions: string[]) => {
  const result = parseFrameRanges(expressions);
  if (!result.ok) throw new Error(`expected frames, got error: ${result.error}`);
  return result.frames;
};

const error = (...expressions: string[]) => {
  const result = parseFrameRanges(expressions);
  if (result.ok) throw new Error(`expected an error, got frames ${formatFrames(result.frames)}`);
  return result.error;
};

const range = (start: number, end: number) => Array.from({ length: end - start + 1 }, (_, i) => start + i);

describe('parseFrameRanges', () => {
  it('reads a single frame', () => {
    expect(frames('12')).toEqual([12]);
    expect(frames('0')).toEqual([0]);
  });

  it('reads an inclusive range', () => {
    expect(frames('1-10')).toEqual(range(1, 10));
    expect(frames('7-7')).toEqual([7]);
  });

  it('reads a range with a step, starting at its first frame', () => {
    expect(frames('1-10/2')).toEqual([1, 3, 5, 7, 9]);
    expect(frames('0-9/3')).toEqual([0, 3, 6, 9]);
    expect(frames('5-6/10')).toEqual([5]);
  });

  it('reads comma-separated lists', () => {
    expect(frames('1-3,5')).toEqual([1, 2, 3, 5]);
    expect(frames('10,1-2,20-22/2')).toEqual([1, 2, 10, 20, 22]);
  });

  it('takes the union of several expressions', () => {
    expect(frames('5', '1-3')).toEqual([1, 2, 3, 5]);
    expect(frames('100', '1-2,50')).toEqual([1, 2, 50, 100]);
  });

  it('ignores whitespace anywhere in an item', () => {
    expect(frames(' 1 - 3 , 5 ')).toEqual([1, 2, 3, 5]);
    expect(frames('1 -10 / 3')).toEqual([1, 4, 7, 10]);
    expect(frames('\t2\n')).toEqual([2]);
  });

  it('merges duplicates and overlaps and sorts the result', () => {
    expect(frames('1-5', '3-7')).toEqual(range(1, 7));
    expect(frames('9,3,3,1,9')).toEqual([1, 3, 9]);
    expect(frames('1-10/2', '2-10/2')).toEqual(range(1, 10));
  });

  it('accepts the highest frame number and exactly the frame cap', () => {
    expect(frames(String(MAX_FRAME))).toEqual([MAX_FRAME]);
    expect(frames(`1-${MAX_FRAMES_PER_JOB}`)).toHaveLength(MAX_FRAMES_PER_JOB);
  });

  it('refuses an empty expression or list', () => {
    expect(error('')).toMatch(/No frames/);
    expect(error('  ', ' ')).toMatch(/No frames/);
    expect(parseFrameRanges([]).ok).toBe(false);
  });

  it('refuses an empty item inside a list', () => {
    expect(error('1,,2')).toMatch(/Empty item/);
    expect(error('1,')).toMatch(/Empty item/);
  });

  it('refuses items that are not frames or ranges', () => {
    expect(error('a')).toContain('"a"');
    expect(error('1-')).toMatch(/not a frame or range/);
    expect(error('-1')).toMatch(/not a frame or range/);
    expect(error('1.5')).toMatch(/not a frame or range/);
    expect(error('1/2')).toMatch(/not a frame or range/);
    expect(error('1-2-3')).toMatch(/not a frame or range/);
    expect(error('1-10/')).toMatch(/not a frame or range/);
  });

  it('refuses a range that ends before it starts', () => {
    expect(error('5-1')).toMatch(/ends before it starts/);
  });

  it('refuses a step below 1', () => {
    expect(error('1-10/0')).toMatch(/step below 1/);
  });

  it('refuses frame numbers above the maximum', () => {
    expect(error(String(MAX_FRAME + 1))).toMatch(/go up to 1048574/);
    expect(error(`1-${MAX_FRAME + 1}`)).toMatch(/go up to/);
    expect(error('99999999999999999999999')).toMatch(/go up to/);
  });

  it('refuses more frames than one job may hold', () => {
    expect(error(`0-${MAX_FRAMES_PER_JOB}`)).toMatch(/More than 100000 frames/);
    expect(error(`1-60000`, `60001-100001`)).toMatch(/More than/);
  });

  it('reports the first error even when other items are fine', () => {
    expect(parseFrameRanges(['1-3', 'x']).ok).toBe(false);
  });
});

describe('sceneFrames', () => {
  it('lists start to end inclusive', () => {
    expect(sceneFrames(1, 5, 1)).toEqual([1, 2, 3, 4, 5]);
  });

  it('steps from the start frame', () => {
    expect(sceneFrames(1, 10, 3)).toEqual([1, 4, 7, 10]);
    expect(sceneFrames(0, 9, 4)).toEqual([0, 4, 8]);
  });

  it('treats a step below 1 as 1', () => {
    expect(sceneFrames(3, 5, 0)).toEqual([3, 4, 5]);
    expect(sceneFrames(3, 5, -2)).toEqual([3, 4, 5]);
  });

  it('is empty when the range is reversed', () => {
    expect(sceneFrames(10, 1, 1)).toEqual([]);
  });
});

describe('formatFrames', () => {
  it('collapses runs and keeps single frames', () => {
    expect(formatFrames([1, 2, 3, 5])).toBe('1-3,5');
    expect(formatFrames([0, 1])).toBe('0-1');
    expect(formatFrames([1, 3, 5])).toBe('1,3,5');
    expect(formatFrames([7])).toBe('7');
    expect(formatFrames([1, 2, 3, 10, 11, 20])).toBe('1-3,10-11,20');
  });

  it('is empty for no frames', () => {
    expect(formatFrames([])).toBe('');
  });

  it('round-trips through parseFrameRanges', () => {
    const lists = [[1, 2, 3, 5], [0], [4, 6, 8, 9, 10, 100], range(10, 50), [MAX_FRAME - 1, MAX_FRAME]];
    for (const list of lists) expect(frames(formatFrames(list))).toEqual(list);
  });
});
