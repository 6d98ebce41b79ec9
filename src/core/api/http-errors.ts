import { apiErrorBodySchema } from '../../shared/api';
import { isPlainRecord } from '../../shared/plain-record';
import { AuthError, InvalidStateError, NotFoundError, RateLimitedError, RenderdropError, ServerError } from '../errors';

/** What the server said in an error body, whatever its shape. */
export interface ServerComplaint {
  message?: string;
  code?: string;
  jobId?: string;
}

/** Reads `{ error: { code, message, jobId? } }`, `{ message }` or `{ error: "..." }` from an error body. */
export function readComplaint(body: unknown): ServerComplaint {
  const parsed = apiErrorBodySchema.safeParse(body);
  if (parsed.success) {
    const { jobId } = parsed.data.error;
    return {
      message: parsed.data.error.message,
      code: parsed.data.error.code,
      ...(typeof jobId === 'string' ? { jobId } : {}),
    };
  }
  if (isPlainRecord(body)) {
    if (typeof body.message === 'string') return { message: body.message };
    if (typeof body.error === 'string') return { message: body.error };
  }
  if (typeof body === 'string' && body.trim() !== '' && body.length < 300) return { message: body.trim() };
  return {};
}

/**
 * The typed error for a non-2xx answer. `subject` names what the call was about ("job 1f2e...") and
 * `action` what was asked ("start the render").
 */
export function errorForStatus(
  status: number,
  complaint: ServerComplaint,
  context: { subject: string; action: string; retryAfterMs?: number; now?: number },
): RenderdropError {
  const said = complaint.message ? `: ${complaint.message}` : '';
  const code = complaint.code;
  if (status === 401) {
    return new AuthError(`API key rejected (401${said}). Update the key for this server.`, { status, code });
  }
  if (status === 403) {
    return new AuthError(
      `The server refused to ${context.action} with this API key (403${said}). Check what the key may do, or use another key.`,
      { status, code },
    );
  }
  if (status === 404) {
    return new NotFoundError(`${capitalise(context.subject)} was not found on the server (404${said}). Check the id and the active profile.`, { status, code });
  }
  if (status === 429) {
    const { retryAfterMs, now } = context;
    const when =
      retryAfterMs !== undefined && now !== undefined
        ? `The server asks to wait ${describeWait(retryAfterMs)}: try again after ${localTime(now + retryAfterMs)}.`
        : 'Try again in a minute.';
    return new RateLimitedError(`The server is rate limiting requests (429); tried to ${context.action} but gave up waiting. ${when}`, {
      status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  if (status >= 500) {
    return new ServerError(`The server failed to ${context.action} (${status}${said}). Try again later; if it persists, check the server.`, { status, code });
  }
  return new InvalidStateError(`Could not ${context.action} (${status}${said}).`, {
    status,
    code,
    ...(complaint.jobId !== undefined ? { existingJobId: complaint.jobId } : {}),
  });
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A wait in words: `45 s`, `12 min`, `2 h 05 min`. */
function describeWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A moment as local date and time to the second, e.g. `2025-03-14 09:26:05`. */
function localTime(at: number): string {
  const date = new Date(Math.ceil(at / 1000) * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}
