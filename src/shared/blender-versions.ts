/**
 * Blender versions as a farm chooses among them. A scene is rendered by one Blender version per job:
 * the lowest the farm has at or above the series ("major.minor") that saved it. A file saved by a
 * newer series than every Blender of the farm cannot be rendered there.
 */

function parts(version: string): number[] {
  return version.split('.').map((part) => Number.parseInt(part, 10) || 0);
}

/** Negative, zero or positive as `a` is older than, the same as or newer than `b`, part by part ("4.3" equals "4.3.0"). */
export function compareBlenderVersions(a: string, b: string): number {
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The series of a version: "4.3" of "4.3.2". */
export function blenderSeries(version: string): string {
  const [major = 0, minor = 0] = parts(version);
  return `${major}.${minor}`;
}

/** Whether a Blender of `version` is of the series `series` or a newer one (the patch release does not count). */
export function opensSeries(version: string, series: string): boolean {
  return compareBlenderVersions(blenderSeries(version), blenderSeries(series)) >= 0;
}

/** The versions once each, oldest first. */
export function distinctBlenderVersions(versions: readonly string[]): string[] {
  return [...new Set(versions)].sort(compareBlenderVersions);
}

/**
 * The Blender version that renders a scene saved by the series `saved` (null: unknown) among the
 * `available` ones: the lowest at or above it, the newest when `saved` is unknown; null when every one
 * is older (or none is available).
 */
export function chooseBlenderVersion(saved: string | null, available: readonly string[]): string | null {
  const versions = distinctBlenderVersions(available);
  if (saved === null) return versions.at(-1) ?? null;
  return versions.find((version) => opensSeries(version, saved)) ?? null;
}

/** The versions among `available` that can open a scene saved by the series `saved` (null: unknown, all of them), oldest first. */
export function versionsOpening(saved: string | null, available: readonly string[]): string[] {
  return distinctBlenderVersions(available).filter((version) => saved === null || opensSeries(version, saved));
}

/**
 * The version among `available` an artist's pick names: `asked` itself when it is exact ("4.3.2"),
 * the lowest of its series when it is a series ("4.3"); null when the farm has none.
 */
export function pickedBlenderVersion(asked: string, available: readonly string[]): string | null {
  const series = asked.split('.').length <= 2;
  return distinctBlenderVersions(available).find((version) => (series ? blenderSeries(version) === blenderSeries(asked) : compareBlenderVersions(version, asked) === 0)) ?? null;
}
