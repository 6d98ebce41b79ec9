import { serializeError } from '../../core/errors';

/**
 * The keychain's own word for why it refused (such as "AccessDenied") in parentheses, taken from a
 * secret store's error; empty when it gave none.
 */
export function keychainReason(error: unknown): string {
  const found = /system keychain \(([^)]{1,200})\)/.exec(serializeError(error).message);
  return found ? ` (${found[1]})` : '';
}

/** Whether a secret store's error means the keychain would not answer (rather than a key that is missing). */
export function isKeychainRefusal(error: unknown): boolean {
  return serializeError(error).code === 'keychain-unavailable';
}
