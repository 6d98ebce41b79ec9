import { missingTags, needsDrawing } from '../plan';

/** What a worker does with a chunk: render it, or hand it over to another worker. */
export type Routing = 'render' | 'hand-over';

/** A worker as routing sees it. */
export interface RoutedWorker {
  name: string;
  blenderVersion: string;
  /** Whether its Blender can render EEVEE and Workbench; null or absent: not checked. */
  eevee?: boolean | null;
  /** The tags it carries; absent: none. */
  tags?: readonly string[];
}

/** What routing reads of a chunk: the Blender version its job renders with (null: any), its engine and the tags its job requires. */
export interface RoutedChunk {
  blender: string | null;
  engine: string | null | undefined;
  /** Worker tags the job requires; absent: none. */
  requires?: readonly string[];
}

/**
 * Whether a worker may render a chunk: it carries every tag the chunk's job requires, its Blender is
 * the version the job renders with, and it is not known to be unable to draw when the chunk's engine
 * draws with the GPU (EEVEE, Workbench).
 */
export function fitsChunk(worker: RoutedWorker, chunk: RoutedChunk): boolean {
  if (missingTags(chunk.requires, worker.tags).length > 0) return false;
  if (chunk.blender !== null && worker.blenderVersion !== chunk.blender) return false;
  return !(needsDrawing(chunk.engine) && worker.eevee === false);
}

/**
 * Route a chunk: a worker that does not fit it ({@link fitsChunk}) or is blocked for its job by hand
 * hands it over, even when no other worker can take it (the chunk then waits, and the node says why);
 * a worker blocked for the job after failing it `maxFailures` times hands it over while another worker
 * that fits, has not failed it as often and is not blocked by hand can take it (so a farm of one worker
 * still fails the job, with its reason, once the chunk's tries are spent).
 */
export function routeChunk(input: {
  chunk: RoutedChunk;
  self: RoutedWorker;
  others: readonly RoutedWorker[];
  /** Failures of this job per worker name. */
  failures: Readonly<Record<string, number>>;
  maxFailures: number;
  /** Names of the workers blocked by hand for this job (or for every job). */
  blocked?: ReadonlySet<string>;
}): Routing {
  const fits = (w: RoutedWorker) => fitsChunk(w, input.chunk);
  const byHand = (w: { name: string }) => input.blocked?.has(w.name) === true;
  const trusted = (w: { name: string }) => (input.failures[w.name] ?? 0) < input.maxFailures && !byHand(w);
  if (!fits(input.self) || byHand(input.self)) return 'hand-over';
  const others = input.others.filter((w) => w.name !== input.self.name);
  if (!trusted(input.self) && others.some((w) => fits(w) && trusted(w))) return 'hand-over';
  return 'render';
}
