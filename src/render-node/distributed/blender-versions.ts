import { needsDrawing } from '../plan';

/** What a worker does with a chunk: render it, or hand it over to another worker. */
export type Routing = 'render' | 'hand-over';

/** A worker as routing sees it. */
export interface RoutedWorker {
  name: string;
  blenderVersion: string;
  /** Whether its Blender can render EEVEE and Workbench; null or absent: not checked. */
  eevee?: boolean | null;
}

/** What routing reads of a chunk: the Blender version its job renders with (null: any) and its engine. */
export interface RoutedChunk {
  blender: string | null;
  engine: string | null | undefined;
}

/**
 * Whether a worker may render a chunk: its Blender is the version the chunk's job renders with, and
 * it is not known to be unable to draw when the chunk's engine draws with the GPU (EEVEE, Workbench).
 */
export function fitsChunk(worker: RoutedWorker, chunk: RoutedChunk): boolean {
  if (chunk.blender !== null && worker.blenderVersion !== chunk.blender) return false;
  return !(needsDrawing(chunk.engine) && worker.eevee === false);
}

/**
 * Route a chunk: a worker that does not fit it ({@link fitsChunk}) hands it over, even when no worker
 * that fits is connected (the chunk then waits for one, and the node says why); a worker that has
 * failed this job repeatedly hands it over while another trusted worker fits it.
 */
export function routeChunk(input: {
  chunk: RoutedChunk;
  self: RoutedWorker;
  others: readonly RoutedWorker[];
  /** Failures of this job per worker name. */
  failures: Readonly<Record<string, number>>;
  maxFailures: number;
}): Routing {
  const fits = (w: RoutedWorker) => fitsChunk(w, input.chunk);
  const trusted = (w: { name: string }) => (input.failures[w.name] ?? 0) < input.maxFailures;
  if (!fits(input.self)) return 'hand-over';
  const others = input.others.filter((w) => w.name !== input.self.name);
  if (!trusted(input.self) && others.some((w) => fits(w) && trusted(w))) return 'hand-over';
  return 'render';
}
