import type { z } from 'zod';
import { ContractError } from '../errors';

/** Parses a response body with `schema`; a mismatch becomes a ContractError naming the field. */
export function parseResponse<S extends z.ZodType>(operation: string, schema: S, body: unknown, status?: number): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue ? issue.path.map(String).join('.') : '';
  throw new ContractError(operation, path, issue?.message ?? 'unexpected shape', status);
}

/** Parses a JSON text body; invalid JSON becomes a ContractError. Empty bodies parse as undefined. */
export function parseJsonText(operation: string, text: string, status?: number): unknown {
  if (text.trim() === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    throw new ContractError(operation, '', 'not valid JSON', status);
  }
}
