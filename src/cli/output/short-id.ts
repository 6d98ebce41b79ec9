/** The first 8 characters of a job id, as shown in lists and folder names. */
export function shortId(id: string): string {
  return id.replace(/-/g, '').slice(0, 8);
}
