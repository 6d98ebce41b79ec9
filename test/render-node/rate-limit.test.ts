import { describe, expect, it } from 'vitest';
import { RateLimiter, parseRateLimit } from '../../src/render-node/rate-limit';

function clock(start = 1_000_000) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

describe('RateLimiter', () => {
  it('allows up to the limit and counts down what remains', () => {
    const c = clock();
    const limiter = new RateLimiter(3, 60_000, c.now);
    expect(limiter.take('k')).toEqual({ allowed: true, remaining: 2 });
    expect(limiter.take('k')).toEqual({ allowed: true, remaining: 1 });
    expect(limiter.take('k')).toEqual({ allowed: true, remaining: 0 });
    expect(limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });

  it('keeps refusing until the window ends, then starts a fresh one', () => {
    const c = clock();
    const limiter = new RateLimiter(2, 10_000, c.now);
    limiter.take('k');
    limiter.take('k');
    c.advance(9_999);
    expect(limiter.take('k').allowed).toBe(false);
    c.advance(1);
    expect(limiter.take('k')).toEqual({ allowed: true, remaining: 1 });
    expect(limiter.take('k')).toEqual({ allowed: true, remaining: 0 });
    expect(limiter.take('k').allowed).toBe(false);
  });

  it('does not extend the window for refused requests', () => {
    const c = clock();
    const limiter = new RateLimiter(1, 5_000, c.now);
    limiter.take('k');
    for (let i = 0; i < 4; i++) {
      c.advance(1_000);
      expect(limiter.take('k').allowed).toBe(false);
    }
    c.advance(1_000);
    expect(limiter.take('k').allowed).toBe(true);
  });

  it('rounds the retry delay up to whole seconds, at least 1', () => {
    const c = clock();
    const limiter = new RateLimiter(1, 60_000, c.now);
    limiter.take('k');
    c.advance(1_500);
    expect(limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: 59 });
    c.advance(57_501);
    expect(limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    c.advance(998);
    expect(limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });

    const short = new RateLimiter(1, 200, c.now);
    short.take('s');
    expect(short.take('s')).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('keeps each key separate', () => {
    const c = clock();
    const limiter = new RateLimiter(1, 60_000, c.now);
    expect(limiter.take('alice').allowed).toBe(true);
    expect(limiter.take('alice').allowed).toBe(false);
    expect(limiter.take('bob')).toEqual({ allowed: true, remaining: 0 });
    expect(limiter.take('bob').allowed).toBe(false);
    c.advance(30_000);
    expect(limiter.take('carol').allowed).toBe(true);
    c.advance(30_000);
    expect(limiter.take('alice').allowed).toBe(true);
    expect(limiter.take('carol').allowed).toBe(false);
  });

  it('still limits a busy key after many other keys have come and gone', () => {
    const c = clock();
    const limiter = new RateLimiter(1, 1_000, c.now);
    for (let i = 0; i < 6_000; i++) limiter.take(`old-${i}`);
    c.advance(1_000);
    limiter.take('hot');
    for (let i = 0; i < 6_000; i++) limiter.take(`new-${i}`);
    expect(limiter.take('hot').allowed).toBe(false);
    expect(limiter.take('new-1').allowed).toBe(false);
    expect(limiter.take('old-1').allowed).toBe(true);
  });

  it('exposes its limit and window', () => {
    const limiter = new RateLimiter(600, 60_000);
    expect(limiter.limit).toBe(600);
    expect(limiter.windowMs).toBe(60_000);
  });
});

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
