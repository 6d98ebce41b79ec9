import { createHmac, timingSafeEqual } from 'node:crypto';

/** The query values of a signed URL as they arrived (anything, until checked). */
export interface SignedQuery {
  expires?: unknown;
  key?: unknown;
  sig?: unknown;
}

/**
 * Signs and checks the node's presigned URLs. A signature covers the method, the path, the expiry
 * (Unix seconds) and the id of the API key the URL was issued to, so a URL cannot be reused for another
 * object, another verb or a later time, and stops working when its key is revoked (checked by the
 * storage routes).
 */
export class UrlSigner {
  constructor(private readonly secret: Buffer) {}

  /** Query string (`expires=...&key=...&sig=...`) for `method path`, issued to `keyId`, valid until `expiresAt`. */
  sign(method: string, path: string, expiresAt: Date, keyId: string): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `expires=${expires}&key=${encodeURIComponent(keyId)}&sig=${this.mac(method, path, expires, keyId)}`;
  }

  /** 'ok' (with the key id it was issued to), 'expired' or 'invalid' for a request's method, path and query. */
  verify(method: string, path: string, query: SignedQuery, now = new Date()): { status: 'ok'; keyId: string } | { status: 'expired' | 'invalid' } {
    const { expires, key, sig } = query;
    if (typeof expires !== 'string' || typeof sig !== 'string' || typeof key !== 'string' || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(sig) || key.length > 64) {
      return { status: 'invalid' };
    }
    const expected = Buffer.from(this.mac(method, path, Number(expires), key), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return { status: 'invalid' };
    return Number(expires) * 1000 <= now.getTime() ? { status: 'expired' } : { status: 'ok', keyId: key };
  }

  private mac(method: string, path: string, expires: number, keyId: string): string {
    return createHmac('sha256', this.secret).update(`${method.toUpperCase()}\n${path}\n${expires}\n${keyId}`).digest('hex');
  }
}
