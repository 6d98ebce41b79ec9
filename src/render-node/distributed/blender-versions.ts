/** "3.4.1" or "3.4" as numbers; parts that are not numbers count as 0. */
export function versionParts(version: string): number[] {
  return version.split('.').map((part) => Number.parseInt(part, 10) || 0);
}

/** Whether a Blender of `version` is at least `minimum` (major.minor; the patch release is ignored). */
export function atLeast(version: string, minimum: string): boolean {
  const [a = 0, b = 0] = versionParts(version);
  const [c = 0, d = 0] = versionParts(minimum);
  return a !== c ? a > c : b >= d;
}

/** What a worker does with a chunk whose scene needs Blender `minimum` or newer. */
export type Routing = 'render' | 'hand-over';

/**
 * Route a chunk: a worker whose Blender is older than the scene's, or that has already failed this
 * job repeatedly, hands the chunk over when another live worker can take it; otherwise it renders
 * (the analysis warned that no worker is new enough).
 */
export function routeChunk(input: {
  minimum: string | null;
  self: { name: string; blenderVersion: string };
  others: readonly { name: string; blenderVersion: string }[];
  /** Failures of this job per worker name. */
  failures: Readonly<Record<string, number>>;
  maxFailures: number;
}): Routing {
  const fits = (w: { blenderVersion: string }) => input.minimum === null || atLeast(w.blenderVersion, input.minimum);
  const trusted = (w: { name: string }) => (input.failures[w.name] ?? 0) < input.maxFailures;
  const others = input.others.filter((w) => w.name !== input.self.name);
  const better = (ok: (w: { name: string; blenderVersion: string }) => boolean) => others.some(ok);
  if (!fits(input.self) && better((w) => fits(w) && trusted(w))) return 'hand-over';
  if (!trusted(input.self) && better((w) => trusted(w) && (fits(w) || !fits(input.self)))) return 'hand-over';
  return 'render';
}
