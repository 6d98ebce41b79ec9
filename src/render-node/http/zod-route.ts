import type { FastifyBaseLogger, FastifyInstance, FastifySchemaCompiler, FastifyTypeProvider, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../http-error';

/** Lets route schemas be zod schemas: `request.body`, `.params` and `.query` get the parsed types. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/** A Fastify scope whose routes have zod schemas (see {@link ZodTypeProvider}). */
export type ZodFastify = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

const CODES: Record<string, string> = { params: 'invalid_id', querystring: 'invalid_query', body: 'invalid_request', headers: 'invalid_request' };

/** Shortens what a person sent before it is quoted back (a 5,000-character id stays readable). */
export function quoted(value: unknown, max = 80): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return `"${text.length > max ? `${text.slice(0, max)}...` : text}"`;
}

/**
 * Validates one part of a request with its zod schema. A failure becomes the node's 400 (`invalid_id`
 * for path parameters, `invalid_query` for the query, `invalid_request` for the body) naming the
 * route, the field and what is wrong with it.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, method, url, httpPart }) => {
  const part = httpPart ?? 'body';
  const code = CODES[part] ?? 'invalid_request';
  return (data: unknown) => {
    const result = schema.safeParse(part === 'body' ? (data ?? {}) : data);
    if (result.success) return { value: result.data };
    const issue = result.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : part === 'body' ? 'body' : part;
    return { error: new HttpError(400, code, `${method} ${url.replace('/api/external/v1', '')}: ${where}: ${issue.message}`) };
  };
};
