/**
 * Worker tags without a schema library, so the command line can check `--tags` and `--requires` as it
 * parses them without loading zod (the API's schemas in shared/api/studio.ts build on these).
 */

/** The most tags a worker carries, or a job requires. */
export const MAX_TAGS = 16;
/** What one tag looks like: `gpu`, `big-ram`, `studio-b`. */
export const TAG = /^[a-z0-9][a-z0-9._-]{0,31}$/;
/** The rule of a tag, in words. */
export const TAG_RULE = 'a tag is 1 to 32 lowercase letters, digits, ".", "_" or "-", starting with a letter or digit (for example gpu or big-ram).';

/**
 * Tags typed by a person (`gpu, Big-RAM`): split on commas and spaces, lowercased, duplicates dropped.
 * Returns the error in words when one is not a tag.
 */
export function parseTags(text: string): { ok: true; tags: string[] } | { ok: false; error: string } {
  const tags = [...new Set(text.split(/[\s,]+/).map((t) => t.trim().toLowerCase()).filter((t) => t !== ''))];
  const bad = tags.find((t) => !TAG.test(t));
  if (bad !== undefined) return { ok: false, error: `"${bad}" is not a tag: ${TAG_RULE}` };
  if (tags.length > MAX_TAGS) return { ok: false, error: `At most ${MAX_TAGS} tags.` };
  return { ok: true, tags };
}
