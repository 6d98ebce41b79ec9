/**
 * Kinds of failure the client core reports. Callers branch on `kind`, people read `message`.
 */
export const CLIENT_ERROR_KINDS = [
  'auth',
  'not-found',
  'invalid-state',
  'rate-limited',
  'server',
  'network',
  'contract',
  'aborted',
  'preflight',
  'packing',
  'invalid-config',
  'transfer',
  'config',
  'journal',
  'unknown',
] as const;
export type ClientErrorKind = (typeof CLIENT_ERROR_KINDS)[number];

/**
 * An error as a plain value, safe to send across IPC, HTTP or a process boundary. Never carries
 * credentials.
 */
export interface SerializedError {
  kind: ClientErrorKind;
  message: string;
  /** HTTP status of the answer that caused it, when there was one. */
  status?: number;
  /** A finer, stable code (a preflight check, a server error code). */
  code?: string;
}
