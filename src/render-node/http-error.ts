import type { Socket } from 'node:net';
import { isDiskFullError } from './disk/disk-space';

/** An error that becomes one `{"error":{"code","message"}}` response with its HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }

  /** The response body. */
  body(): { error: { code: string; message: string } & Record<string, unknown> } {
    return { error: { ...this.details, code: this.code, message: this.message } };
  }
}

export const badRequest = (code: string, message: string, details?: Record<string, unknown>) =>
  new HttpError(400, code, message, {}, details);
export const notFound = (message: string) => new HttpError(404, 'not_found', message);
export const forbidden = (code: string, message: string) => new HttpError(403, code, message);
/** The 507 answer to a request that could not be stored for lack of disk space. */
export const insufficientStorage = (message: string) => new HttpError(507, 'insufficient_storage', message);

/** The errors Fastify itself raises, in the node's words. */
const FRAMEWORK_ERRORS: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type', 'Request bodies must be JSON, sent with Content-Type: application/json.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'body_too_large', 'The request body is too large (limit 1 MiB).'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalid_json', 'The request body is not valid JSON.'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalid_json', 'The request body is not valid JSON.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'invalid_content_length', 'Content-Length does not match the body.'],
  FST_ERR_BAD_URL: [400, 'invalid_url', 'The request path is not validly encoded (a "%" must be followed by two hex digits of UTF-8).'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'path_too_long', 'A part of the request path is too long (a job id is 36 characters).'],
  FST_ERR_ASYNC_CONSTRAINT: [400, 'bad_request', 'The request could not be routed.'],
};

/** Turn anything a route or Fastify throws into the node's one error shape (a full disk is a 507). */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (isDiskFullError(err)) return insufficientStorage("The render node's disk is full, so it could not save this request. Free space on the node's disk, then try again.");
  const code = err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : '';
  const known = FRAMEWORK_ERRORS[code];
  if (known) return new HttpError(...known);
  const status = err instanceof Error && 'statusCode' in err && typeof err.statusCode === 'number' ? err.statusCode : 500;
  if (status >= 400 && status < 500) return new HttpError(status, 'bad_request', err instanceof Error ? err.message : 'Bad request.');
  return new HttpError(500, 'internal', 'The node hit an internal error; see its log.');
}

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses (a negative or malformed
 * Content-Length, a body shorter than announced, oversized headers) are answered in the one error
 * shape before the connection closes.
 */
export function writeClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, error] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', new HttpError(408, 'request_timeout', 'The request took too long to arrive.')]
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', new HttpError(431, 'headers_too_large', 'The request headers are too large.')]
        : [400, 'Bad Request', new HttpError(400, 'malformed_request', 'The request is not valid HTTP (check Content-Length: it must match the body exactly).')];
  const body = JSON.stringify(error.body());
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(err);
}
