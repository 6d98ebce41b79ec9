/** Whether a value is a plain JSON object (not null, not an array), so its fields may be read. */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
