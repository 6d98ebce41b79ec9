import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signs and checks the node's presigned URLs. A signature covers the method, the path and the expiry
 * (Unix seconds), so a URL cannot be reused for another object, another verb or a later time.
 */
export class UrlSigner {
  constructor(private readonly secret: Buffer) {}

  /** Query string (`expires=...&sig=...`) for `method path` valid until `expiresAt`. */
  sign(method: string, path: string, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `expires=${expires}&sig=${this.mac(method, path, expires)}`;
  }

  /** 'ok', 'expired' or 'invalid' for a request's method, path and query values. */
  verify(method: string, path: string, expires: unknown, sig: unknown, now = new Date()): 'ok' | 'expired' | 'invalid' {
    if (typeof expires !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(sig)) {
      return 'invalid';
    }
    const expected = Buffer.from(this.mac(method, path, Number(expires)), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return 'invalid';
    return Number(expires) * 1000 <= now.getTime() ? 'expired' : 'ok';
  }

  private mac(method: string, path: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${method.toUpperCase()}\n${path}\n${expires}`).digest('hex');
  }
}
