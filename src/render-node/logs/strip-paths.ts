/** A folder whose absolute path is replaced by a short placeholder in the lines of a log. */
export interface LogPlace {
  path: string;
  placeholder: string;
}

function variants(path: string): string[] {
  const trimmed = path.replace(/[\\/]+$/, '');
  if (trimmed === '') return [];
  const forward = trimmed.replace(/\\/g, '/');
  const backward = trimmed.replace(/\//g, '\\');
  return [...new Set([trimmed, forward, backward])];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A function that replaces each of `places` in a line by its placeholder (the most specific folder
 * first, so a job's folder inside the data folder becomes the job's placeholder), with either kind
 * of slash, only where the folder's name ends (`/home/ann` is not found in `/home/anna`). Folders
 * too short to be told from other text (a root) are left alone.
 */
export function pathStripper(places: readonly LogPlace[]): (line: string) => string {
  const pairs = places
    .flatMap((place) => variants(place.path).map((path) => ({ path, placeholder: place.placeholder })))
    .filter((pair) => pair.path.length >= 4)
    .sort((a, b) => b.path.length - a.path.length);
  const patterns = pairs.map((pair) => ({ pattern: new RegExp(`${escape(pair.path)}(?=$|[\\\\/\\s'"():,;])`, 'g'), pair }));
  return (line) => {
    let out = line;
    for (const { pattern, pair } of patterns) if (out.includes(pair.path)) out = out.replace(pattern, () => pair.placeholder);
    return out;
  };
}
