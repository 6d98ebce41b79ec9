/**
 * `text` trimmed and ending as a sentence ends: with its own `.`, `!`, `?` or `…` when it has one
 * (also before closing quotes or brackets), else with a full stop added. Server messages already
 * ending in a full stop so never end in two.
 */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '' || /[.!?…]["')\]}»”’]*$/.test(trimmed)) return trimmed;
  return `${trimmed}.`;
}
