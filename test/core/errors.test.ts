import { describe, expect, it } from 'vitest';
import { AbortError, AuthError, ContractError, NetworkError, PreflightError, RateLimitedError, serializeError, toUserMessage } from '../../src/core/errors';

describe('errors', () => {
  it('serialise to plain values with kind, message and status', () => {
    expect(serializeError(new AuthError('API key rejected (401).', { status: 401 }))).toEqual({ kind: 'auth', message: 'API key rejected (401).', status: 401 });
    expect(serializeError(new PreflightError('empty', 'x is empty'))).toEqual({ kind: 'preflight', message: 'x is empty', code: 'empty' });
    expect(JSON.parse(JSON.stringify(new RateLimitedError('slow', { retryAfterMs: 5 })))).toEqual({ kind: 'rate-limited', message: 'slow', status: 429 });
  });

  it('name the operation and field of a contract break', () => {
    const error = new ContractError('GET /jobs', 'jobs.0.id', 'expected string');
    expect(error.message).toContain('GET /jobs');
    expect(error.message).toContain('jobs.0.id');
  });

  it('handle foreign errors and aborts', () => {
    expect(serializeError(new Error('boom'))).toEqual({ kind: 'unknown', message: 'Unexpected error: boom' });
    expect(serializeError(Object.assign(new Error('x'), { name: 'AbortError' })).kind).toBe('aborted');
    expect(toUserMessage(new AbortError())).toBe('Stopped on request.');
    expect(new NetworkError('n', { maybeApplied: false }).name).toBe('NetworkError');
  });
});
