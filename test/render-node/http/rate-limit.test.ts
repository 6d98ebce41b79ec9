import { describe, expect, it } from 'vitest';
import { parseRateLimit } from '../../../src/render-node/http/rate-limit';

describe('parseRateLimit', () => {
  it('reads seconds, minutes and milliseconds', () => {
    expect(parseRateLimit('600/60s')).toEqual({ limit: 600, windowMs: 60_000 });
    expect(parseRateLimit('100/1m')).toEqual({ limit: 100, windowMs: 60_000 });
    expect(parseRateLimit('10/1000ms')).toEqual({ limit: 10, windowMs: 1_000 });
    expect(parseRateLimit('5/2m')).toEqual({ limit: 5, windowMs: 120_000 });
  });

  it('ignores surrounding whitespace', () => {
    expect(parseRateLimit('  20/5s \n')).toEqual({ limit: 20, windowMs: 5_000 });
  });

  it.each(['', 'abc', '600', '600/', '/60s', '600/60', '600/60h', '600/s', '0/60s', '600/0s', '-1/60s', '1.5/60s', '600 / 60s', '600/60S'])(
    'refuses %j with an example of the right form',
    (spec) => {
      expect(() => parseRateLimit(spec)).toThrow(/for example 600\/60s/);
    },
  );
});
