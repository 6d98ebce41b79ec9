import type { z } from 'zod';

/**
 * A row read from the database, checked against what the code expects of it (a schema drift or a
 * hand-edited database is an error that names the table, not a wrong value later).
 */
export function parseRow<T extends z.ZodType>(table: string, schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`A row of ${table} does not have the expected shape: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  return parsed.data;
}

/** An optional row (`undefined` when the query found none), checked like {@link parseRow}. */
export function parseOptionalRow<T extends z.ZodType>(table: string, schema: T, value: unknown): z.output<T> | null {
  return value === undefined ? null : parseRow(table, schema, value);
}

/** Stored JSON text, parsed and checked with its schema; null stays null. */
export function parseJsonColumn<T extends z.ZodType>(column: string, schema: T, text: string | null): z.output<T> | null {
  if (text === null) return null;
  return parseRow(column, schema, JSON.parse(text));
}
