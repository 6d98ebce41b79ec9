import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { RenderdropError, serializeError } from '../core/errors';
import type { SerializedError } from '../shared/client-error';

/** The one shape of every error browser mode answers: `{ ok: false, error: { kind, code, message } }`. */
export interface WebErrorBody {
  ok: false;
  error: SerializedError & { code: string };
}

/** An error body; `code` is always set. */
export function errorBody(kind: SerializedError['kind'], code: string, message: string): WebErrorBody {
  return { ok: false, error: { kind, code, message } };
}

/** Sends an error in the one shape. */
export function sendError(reply: FastifyReply, status: number, body: WebErrorBody): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
}

const FRAMEWORK_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'too-large', message: 'The request body is larger than 1 MiB.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'content-type', message: 'Calls must be sent as application/json.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'bad-body', message: 'The request body does not match its Content-Length.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'bad-body', message: 'The request body is empty.' },
  FST_ERR_BAD_URL: { status: 400, code: 'bad-url', message: 'The address is not valid (a malformed %-escape).' },
};

/**
 * Every error that reaches Fastify (thrown by a route or raised by Fastify itself: a body too large,
 * a wrong content type, bad JSON, a malformed URL) in the one shape, with a status that says whose
 * fault it was.
 */
export function handleError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
  if (known) return sendError(reply, known.status, errorBody('contract', known.code, known.message));
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return sendError(reply, 400, errorBody('contract', 'bad-body', `The request body is not JSON (${error.message}).`));
  }
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status < 500 && !(error instanceof RenderdropError)) {
    const plain = CLIENT_ERRORS[status] ?? { code: 'bad-request', message: `The request was refused (${status}).` };
    return sendError(reply, status, errorBody('contract', plain.code, plain.message));
  }
  const serialized = serializeError(error);
  return sendError(reply, status, errorBody(serialized.kind, serialized.code ?? (status === 500 ? 'internal' : 'bad-request'), serialized.message));
}

const CLIENT_ERRORS: Record<number, { code: string; message: string }> = {
  403: { code: 'forbidden', message: 'That file is not part of the Renderdrop app.' },
  404: { code: 'not-found', message: 'Not found.' },
  405: { code: 'method', message: 'Method not allowed.' },
};
