import { parseTags, PRIORITY } from '../../../shared/api';

/** Why a typed priority is not one (a whole number from 0 to 100), or null when it is, or left empty. */
export function priorityError(text: string): string | null {
  const t = text.trim();
  if (t === '') return null;
  if (!/^\d+$/.test(t) || Number(t) < PRIORITY.min || Number(t) > PRIORITY.max) return `Priority is a whole number from ${PRIORITY.min} (lowest) to ${PRIORITY.max} (highest).`;
  return null;
}

/** Why typed worker tags are not tags, in words, or null when they are (or none were typed). */
export function tagsError(text: string): string | null {
  const parsed = parseTags(text);
  return parsed.ok ? null : parsed.error.charAt(0).toUpperCase() + parsed.error.slice(1);
}

/** The tags typed, cleaned (lowercase, no duplicates); empty when none or when they are not tags. */
export function typedTags(text: string): string[] {
  const parsed = parseTags(text);
  return parsed.ok ? parsed.tags : [];
}
