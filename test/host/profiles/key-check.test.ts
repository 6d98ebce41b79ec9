import { describe, expect, it } from 'vitest';
import { keyWasRejected, refuseRejectedKey } from '../../../src/host/profiles/key-check';
import type { ConnectionTest } from '../../../src/shared/contract/app-state';

const answer = (test: ConnectionTest) => async () => test;

describe('refuseRejectedKey', () => {
  it('refuses a key the server answered 401 or 403 for, saying it was not saved', async () => {
    for (const status of [401, 403]) {
      await expect(refuseRejectedKey('http://farm', 'k'.repeat(10), answer({ ok: false, message: 'no', jobCount: null, status }))).rejects.toThrow(`rejected this API key (${status}), so it was not saved`);
    }
  });

  it('lets a working key through, and one whose server cannot be reached (it is tested on connection)', async () => {
    await expect(refuseRejectedKey('http://farm', 'k'.repeat(10), answer({ ok: true, message: 'ok', jobCount: 3, status: 200 }))).resolves.toBeUndefined();
    await expect(refuseRejectedKey('http://farm', 'k'.repeat(10), answer({ ok: false, message: 'unreachable', jobCount: null, status: null }))).resolves.toBeUndefined();
    await expect(refuseRejectedKey('http://farm', 'k'.repeat(10), answer({ ok: false, message: 'busy', jobCount: null, status: 503 }))).resolves.toBeUndefined();
  });

  it('tells a rejected key from other failures', () => {
    expect(keyWasRejected({ ok: false, message: '', jobCount: null, status: 401 })).toBe(true);
    expect(keyWasRejected({ ok: false, message: '', jobCount: null, status: 500 })).toBe(false);
    expect(keyWasRejected({ ok: true, message: '', jobCount: 0, status: 200 })).toBe(false);
  });
});
