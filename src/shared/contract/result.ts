import type { SerializedError } from '../client-error';

/** The outcome of a contract call: a value, or an error as a plain value (never a thrown object). */
export type Result<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

/** A successful result. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** A failed result. */
export function fail<T = never>(error: SerializedError): Result<T> {
  return { ok: false, error };
}
