import type { ClientErrorKind, SerializedError } from '../shared/client-error';

/**
 * Base of every error the client core throws on purpose. `kind` tells a caller what to do about it,
 * `message` tells a person what happened and what to try. Messages never contain the API key.
 */
export abstract class RenderdropError extends Error {
  abstract readonly kind: ClientErrorKind;
  /** HTTP status of the answer that caused it, when there was one. */
  readonly status?: number;
  /** A finer, stable code (server error code, preflight check, network error code). */
  readonly code?: string;

  constructor(message: string, options: { status?: number; code?: string } = {}) {
    super(message);
    this.name = new.target.name;
    if (options.status !== undefined) this.status = options.status;
    if (options.code !== undefined) this.code = options.code;
  }

  /** This error as a plain value that can cross a process boundary. */
  toJSON(): SerializedError {
    const out: SerializedError = { kind: this.kind, message: this.message };
    if (this.status !== undefined) out.status = this.status;
    if (this.code !== undefined) out.code = this.code;
    return out;
  }
}

/** The server refused the API key (401) or the key may not do this (403). */
export class AuthError extends RenderdropError {
  readonly kind = 'auth';
}

/** The job (or other resource) does not exist on the server. */
export class NotFoundError extends RenderdropError {
  readonly kind = 'not-found';
}

/**
 * The server refused the request in the job's current state or as malformed (400 of validate, render,
 * cancel, and other 4xx). `existingJobId` is set when a 409 names a job that already exists.
 */
export class InvalidStateError extends RenderdropError {
  readonly kind = 'invalid-state';
  readonly existingJobId?: string;

  constructor(message: string, options: { status?: number; code?: string; existingJobId?: string } = {}) {
    super(message, options);
    if (options.existingJobId !== undefined) this.existingJobId = options.existingJobId;
  }
}

/** Still rate limited (429) after waiting as long as allowed. */
export class RateLimitedError extends RenderdropError {
  readonly kind = 'rate-limited';
  /** How long the server asked to wait, when it said so. */
  readonly retryAfterMs?: number;

  constructor(message: string, options: { status?: number; retryAfterMs?: number } = {}) {
    super(message, { status: options.status ?? 429 });
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

/** The server failed (5xx). */
export class ServerError extends RenderdropError {
  readonly kind = 'server';
}

/**
 * The server could not be reached or the connection broke. `maybeApplied` is true when the request may
 * have reached the server before the failure, so repeating a non-idempotent call could do it twice.
 */
export class NetworkError extends RenderdropError {
  readonly kind = 'network';
  readonly maybeApplied: boolean;

  constructor(message: string, options: { code?: string; maybeApplied: boolean }) {
    super(message, { code: options.code });
    this.maybeApplied = options.maybeApplied;
  }
}

/** The server answered with something that breaks the API contract. */
export class ContractError extends RenderdropError {
  readonly kind = 'contract';
  readonly operation: string;
  /** Dotted path of the offending field (`jobs.3.status`), empty for the whole body. */
  readonly path: string;

  constructor(operation: string, path: string, detail: string, status?: number) {
    const where = path === '' ? 'the response' : `field "${path}"`;
    super(
      `The server's answer to ${operation} does not follow the API (${where}: ${detail}). ` +
        'Check that the profile points at a Render Job API server, or update Renderdrop.',
      { status, code: 'contract-violation' },
    );
    this.operation = operation;
    this.path = path;
  }
}

/** The caller aborted the operation. */
export class AbortError extends RenderdropError {
  readonly kind = 'aborted';

  constructor(message = 'Stopped on request.') {
    super(message);
  }
}

/** A file failed a check before anything was sent. `code` names the check. */
export class PreflightError extends RenderdropError {
  readonly kind = 'preflight';
  declare readonly code: PreflightCode;

  constructor(code: PreflightCode, message: string) {
    super(message, { code });
  }
}

/** Every check preflight can fail. */
export type PreflightCode =
  | 'not-found'
  | 'not-a-file'
  | 'unreadable'
  | 'bad-extension'
  | 'empty'
  | 'too-large'
  | 'not-blender'
  | 'not-zip'
  | 'zip-empty'
  | 'zip-corrupt'
  | 'zip-no-blend'
  | 'zip-unsafe-entry'
  | 'zip-symlink'
  | 'scene-not-in-zip'
  | 'blender-too-new'
  | 'blender-unavailable';

/**
 * The scene could not be packed the way it was recorded: its files changed after packing began, or
 * the bundle cannot be made (two files would share a name, a path is too long for its .blend). `code`
 * names which; nothing was sent.
 */
export class PackingError extends RenderdropError {
  readonly kind = 'packing';
}

/** The render settings ask for something the scene cannot do (a camera it lacks); nothing was sent. */
export class RenderRefusedError extends RenderdropError {
  readonly kind = 'invalid-config';
}

/** An upload or download to a storage URL failed in a way retrying did not fix. */
export class TransferError extends RenderdropError {
  readonly kind = 'transfer';
}

/** Settings, profile or key are missing or unusable. */
export class ConfigError extends RenderdropError {
  readonly kind = 'config';
}

/** The submission journal could not be read or written. */
export class JournalError extends RenderdropError {
  readonly kind = 'journal';
}

/** Another run (in this or another Renderdrop process) is driving the submission; code `busy`. */
export class SubmissionBusyError extends JournalError {
  /** Process holding the submission, and the computer it runs on. */
  readonly pid: number;
  readonly host: string;

  constructor(message: string, holder: { pid: number; host: string }) {
    super(message, { code: 'busy' });
    this.pid = holder.pid;
    this.host = holder.host;
  }
}

/** The `code` a thrown value carries (a Node.js error code such as `ENOSPC`), if any. */
export function errorCode(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object' || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** What to say about a thrown value in a message: its code when it has one, else its message. */
export function errorReason(error: unknown): string {
  return errorCode(error) ?? (error instanceof Error ? error.message : String(error));
}

/** Whether `error` is an abort, ours or the platform's. */
export function isAbort(error: unknown): boolean {
  if (error instanceof AbortError) return true;
  return error instanceof Error && (error.name === 'AbortError' || errorCode(error) === 'ABORT_ERR');
}

/** Any thrown value as a serialisable error a person can read. */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof RenderdropError) return error.toJSON();
  if (isAbort(error)) return new AbortError().toJSON();
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'unknown', message: `Unexpected error: ${message}` };
}

/** The message to show a person for any thrown value. */
export function toUserMessage(error: unknown): string {
  return serializeError(error).message;
}
