import { forbidden } from '../../http-error';
import { isKeyActive } from '../../store';
import type { NodeContext } from '../context';
import type { SignedQuery } from '../signing';

/** The key a signed URL of a chunked upload was issued to, once its signature, expiry and key are checked. */
export function signedKey(ctx: NodeContext, method: string, path: string, query: SignedQuery): string {
  const verdict = ctx.signer.verify(method, path, query, ctx.now());
  if (verdict.status !== 'ok') {
    throw verdict.status === 'expired'
      ? forbidden('url_expired', 'This chunked upload has expired; describe the file again (what was sent is not asked for again).')
      : forbidden('signature_invalid', 'This URL is not validly signed (tampered or incomplete).');
  }
  if (!isKeyActive(ctx.db, verdict.keyId)) throw forbidden('key_revoked', 'This URL was issued to an API key that has since been revoked; start again with a valid key.');
  return verdict.keyId;
}
