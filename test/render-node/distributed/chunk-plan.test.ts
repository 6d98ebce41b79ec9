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

  it('deals frames spread across the shot in turn to the chunks workers take side by side', () => {
    const spread = [1, 9, 5, 3, 7, 2, 4, 6, 8];
    // Two workers, chunks of 5: both chunks start together, so 1 and 9 come first, then 5 and 3 ...
    expect(splitIntoChunks(spread, 5, 2)).toEqual([
      [1, 5, 7, 4, 8],
      [9, 3, 2, 6],
    ]);
    // Chunks of 2 for two workers: each pair of chunks shares the next four frames.
    expect(splitIntoChunks(spread, 2, 2)).toEqual([[1, 5], [9, 3], [7, 4], [2, 6], [8]]);
    expect(splitIntoChunks(spread, 4, 1)).toEqual([[1, 9, 5, 3], [7, 2, 4, 6], [8]]);
    expect(splitIntoChunks(spread, 3, 0)).toEqual(splitIntoChunks(spread, 3));
    for (const [size, lanes] of [[1, 3], [2, 3], [4, 2], [25, 4], [3, 10]]) {
      const chunks = splitIntoChunks(spread, size!, lanes);
      expect(chunks.flat().sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(size!);
    }
  });

  it('describes frames as short ranges', () => {
    expect(describeFrames([1, 2, 3, 4, 7, 9, 10, 11])).toBe('1-4, 7, 9-11');
    expect(describeFrames([5])).toBe('5');
    expect(describeFrames([3, 1, 2, 2])).toBe('1-3');
    expect(describeFrames([])).toBe('');
  });
});
