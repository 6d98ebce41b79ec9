import { describe, expect, it } from 'vitest';
import { autoChunkSize, describeFrames, MAX_AUTO_CHUNK, splitIntoChunks } from '../../../src/render-node/distributed/chunk-plan';

describe('chunk plan', () => {
  it('chooses one chunk per connected worker, within bounds', () => {
    expect(autoChunkSize(16, 2)).toBe(8);
    expect(autoChunkSize(17, 2)).toBe(9);
    expect(autoChunkSize(16, 0)).toBe(16);
    expect(autoChunkSize(3, 10)).toBe(1);
    expect(autoChunkSize(1, 1)).toBe(1);
    expect(autoChunkSize(100_000, 4)).toBe(MAX_AUTO_CHUNK);
    expect(autoChunkSize(250, 1000)).toBe(1);
  });

  it('splits frames in render order into chunks of at most the size', () => {
    expect(splitIntoChunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(splitIntoChunks([10, 20], 5)).toEqual([[10, 20]]);
    expect(splitIntoChunks([], 3)).toEqual([]);
    expect(() => splitIntoChunks([1], 0)).toThrow(/at least 1/);
    expect(() => splitIntoChunks([1], 1.5)).toThrow(/whole number/);
  });

  it('describes frames as short ranges', () => {
    expect(describeFrames([1, 2, 3, 4, 7, 9, 10, 11])).toBe('1-4, 7, 9-11');
    expect(describeFrames([5])).toBe('5');
    expect(describeFrames([3, 1, 2, 2])).toBe('1-3');
    expect(describeFrames([])).toBe('');
  });
});
