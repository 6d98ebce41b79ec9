/**
 * A count with its noun in the right number: `1 frame`, `0 frames`, `12 frames`. The plural is the
 * singular with an `s` unless given.
 */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
