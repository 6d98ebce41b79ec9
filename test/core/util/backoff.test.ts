import { describe, expect, it } from 'vitest';
import { fullJitterDelay, parseRetryAfter } from '../../../src/core/util/backoff';

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads delta seconds', () => expect(parseRetryAfter('7', now)).toBe(7000));
  it('reads an HTTP date relative to now', () => expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000));
  it('clamps past dates to zero', () => expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0));
  it('ignores garbage and absence', () => {
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
  });
});

describe('fullJitterDelay', () => {
  const options = { baseDelayMs: 100, capDelayMs: 1000 };
  it('grows exponentially up to the cap', () => {
    expect([0, 1, 2, 3, 4, 10].map((a) => fullJitterDelay(a, options, () => 0.999999))).toEqual([99, 199, 399, 799, 999, 999]);
  });
  it('can be zero (full jitter)', () => expect(fullJitterDelay(5, options, () => 0)).toBe(0));
});
