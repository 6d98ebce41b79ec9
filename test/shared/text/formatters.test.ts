import { describe, expect, it } from 'vitest';
import { countOf, formatBytes, formatDuration, formatRate, percent } from '../../../src/shared/text';

describe('formatBytes', () => {
  it('shows decimal units, as file browsers do', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(999)).toBe('999 bytes');
    expect(formatBytes(1000)).toBe('1.0 KB');
    expect(formatBytes(320_000)).toBe('320 KB');
    expect(formatBytes(1_500_000)).toBe('1.5 MB');
    expect(formatBytes(12_345_678_901)).toBe('12.3 GB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.4 GB');
  });

  it('moves to the next unit rather than show 1000 of one', () => {
    expect(formatBytes(999_960)).toBe('1.0 MB');
    expect(formatBytes(99_960)).toBe('100 KB');
  });

  it('shows a dash for what is not a size', () => {
    expect(formatBytes(-1)).toBe('–');
    expect(formatBytes(Number.NaN)).toBe('–');
  });
});

describe('formatRate', () => {
  it('is a size per second, never negative', () => {
    expect(formatRate(3_100_000)).toBe('3.1 MB/s');
    expect(formatRate(-5)).toBe('0 bytes/s');
  });
});

describe('formatDuration', () => {
  it('reads as seconds, minutes or hours', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(4.4)).toBe('4 s');
    expect(formatDuration(185)).toBe('3 min 05 s');
    expect(formatDuration(3720)).toBe('1 h 02 min');
  });

  it('says a moment is under a second and shows a dash for no duration', () => {
    expect(formatDuration(0.3)).toBe('under 1 s');
    expect(formatDuration(null)).toBe('–');
    expect(formatDuration(-1)).toBe('–');
  });
});

describe('percent', () => {
  it('rounds down so that 100 means done', () => {
    expect(percent(3, 3)).toBe(100);
    expect(percent(2, 3)).toBe(66);
    expect(percent(999, 1000)).toBe(99);
    expect(percent(29, 100)).toBe(29);
  });

  it('stays between 0 and 100 and is 0 without a total', () => {
    expect(percent(1, 0)).toBe(0);
    expect(percent(1, null)).toBe(0);
    expect(percent(5, 3)).toBe(100);
    expect(percent(-1, 3)).toBe(0);
  });
});

describe('countOf', () => {
  it('puts the noun in the right number', () => {
    expect(countOf(1, 'frame')).toBe('1 frame');
    expect(countOf(0, 'frame')).toBe('0 frames');
    expect(countOf(2, 'box', 'boxes')).toBe('2 boxes');
  });
});
