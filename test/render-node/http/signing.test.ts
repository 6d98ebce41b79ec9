import { describe, expect, it } from 'vitest';
import { UrlSigner } from '../../../src/render-node/http/signing';

const signer = new UrlSigner(Buffer.from('a test secret of reasonable length, 32+ bytes'));
const now = new Date('2025-03-01T12:00:00Z');
const inAnHour = new Date(now.getTime() + 3_600_000);
const path = '/storage/uploads/abc123/scene.blend';

const KEY = '3f1c0a52-0000-4000-8000-000000000001';

function query(qs: string): { expires: string; key: string; sig: string } {
  const params = new URLSearchParams(qs);
  return { expires: params.get('expires')!, key: params.get('key')!, sig: params.get('sig')! };
}

/** The verdict's status alone. */
function check(s: UrlSigner, method: string, p: string, expires: unknown, sig: unknown, at: Date, key: unknown = KEY): string {
  return s.verify(method, p, { expires, key, sig }, at).status;
}

describe('UrlSigner', () => {
  it('signs the expiry in Unix seconds with a hex signature', () => {
    const qs = signer.sign('PUT', path, new Date(inAnHour.getTime() + 999), KEY);
    expect(qs).toMatch(/^expires=\d+&key=[0-9a-f-]+&sig=[0-9a-f]{64}$/);
    expect(query(qs).expires).toBe(String(Math.floor(inAnHour.getTime() / 1000)));
  });

  it('accepts its own signature before the expiry', () => {
    const { expires, sig } = query(signer.sign('PUT', path, inAnHour, KEY));
    expect(check(signer, 'PUT', path, expires, sig, now)).toBe('ok');
    expect(check(signer, 'PUT', path, expires, sig, new Date(inAnHour.getTime() - 1000))).toBe('ok');
  });

  it('treats the method case-insensitively', () => {
    const { expires, sig } = query(signer.sign('get', path, inAnHour, KEY));
    expect(check(signer, 'GET', path, expires, sig, now)).toBe('ok');
  });

  it('reports an expired signature from the expiry second on', () => {
    const { expires, sig } = query(signer.sign('GET', path, inAnHour, KEY));
    expect(check(signer, 'GET', path, expires, sig, inAnHour)).toBe('expired');
    expect(check(signer, 'GET', path, expires, sig, new Date(inAnHour.getTime() + 86_400_000))).toBe('expired');
  });

  it('refuses a tampered signature', () => {
    const { expires, sig } = query(signer.sign('GET', path, inAnHour, KEY));
    const flipped = (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1);
    expect(check(signer, 'GET', path, expires, flipped, now)).toBe('invalid');
    expect(check(signer, 'GET', path, expires, sig.slice(0, 63) + (sig[63] === '0' ? '1' : '0'), now)).toBe('invalid');
  });

  it('refuses a signature moved to a later expiry', () => {
    const { expires, sig } = query(signer.sign('GET', path, inAnHour, KEY));
    expect(check(signer, 'GET', path, String(Number(expires) + 3600), sig, now)).toBe('invalid');
  });

  it('calls a forged signature invalid, not expired, once its time has passed', () => {
    const { expires, sig } = query(signer.sign('GET', path, now, KEY));
    const forged = '0'.repeat(64);
    expect(check(signer, 'GET', path, expires, forged, new Date(now.getTime() + 1000))).toBe('invalid');
    expect(check(signer, 'GET', path, expires, sig, new Date(now.getTime() + 1000))).toBe('expired');
  });

  it('refuses the signature for another path', () => {
    const { expires, sig } = query(signer.sign('GET', path, inAnHour, KEY));
    expect(check(signer, 'GET', '/storage/uploads/abc123/other.blend', expires, sig, now)).toBe('invalid');
    expect(check(signer, 'GET', `${path}/`, expires, sig, now)).toBe('invalid');
  });

  it('refuses the signature for another method', () => {
    const { expires, sig } = query(signer.sign('GET', path, inAnHour, KEY));
    expect(check(signer, 'PUT', path, expires, sig, now)).toBe('invalid');
    expect(check(signer, 'DELETE', path, expires, sig, now)).toBe('invalid');
  });

  it('refuses a signature made with another secret', () => {
    const other = new UrlSigner(Buffer.from('another secret'));
    const { expires, sig } = query(other.sign('GET', path, inAnHour, KEY));
    expect(check(signer, 'GET', path, expires, sig, now)).toBe('invalid');
  });

  it('binds the URL to the key it was issued to', () => {
    const { expires, key, sig } = query(signer.sign('GET', path, inAnHour, KEY));
    expect(key).toBe(KEY);
    expect(signer.verify('GET', path, { expires, key, sig }, now)).toEqual({ status: 'ok', keyId: KEY });
    expect(check(signer, 'GET', path, expires, sig, now, '3f1c0a52-0000-4000-8000-000000000002')).toBe('invalid');
    expect(check(signer, 'GET', path, expires, sig, now, null)).toBe('invalid');
  });

  it('refuses missing or malformed values without throwing', () => {
    const { expires, sig } = query(signer.sign('GET', path, inAnHour, KEY));
    const cases: [unknown, unknown][] = [
      [undefined, sig],
      [expires, undefined],
      [Number(expires), sig],
      [[expires], sig],
      [expires, [sig]],
      ['', sig],
      ['-1', sig],
      [`${expires}.0`, sig],
      ['1234567890123', sig],
      ['abc', sig],
      [expires, sig.toUpperCase()],
      [expires, sig.slice(0, 62)],
      [expires, `${sig}00`],
      [expires, 'z'.repeat(64)],
      [expires, ''],
      [null, null],
    ];
    for (const [e, s] of cases) expect(check(signer, 'GET', path, e, s, now)).toBe('invalid');
  });
});
