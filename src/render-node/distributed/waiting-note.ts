import type { WorkerInfo } from '../../shared/api';
import { engineName, missingTags, needsDrawing, tagsInWords } from '../plan';
import { fitsChunk } from './blender-versions';

/** What a render waits for when its chunks sit in the queue and no worker takes them. */
export const WAITING_NOTES = {
  paused: 'Waiting: the render queue is paused',
  noWorkers: 'Waiting: no render worker is connected',
  disksFull: 'Waiting: every render worker is out of disk space',
  blocked: 'Waiting: every render worker that could render it is blocked for this job',
} as const;

/** The words of a render no connected worker carries the tags of. */
export function waitingForTags(requires: readonly string[]): string {
  return `Waiting for a render worker tagged ${tagsInWords(requires)}`;
}

/** What {@link waitingNote} reads of a render. */
export interface WaitingRender {
  /** The Blender version its chunks render with; null while none is chosen. */
  blender: string | null;
  /** The Blender series that saved the scene, when known (a version is chosen from any worker when it is not). */
  saved: string | null;
  engine: string | null;
  /** Its unfinished chunks waiting in the queue (or handed over), and those a worker holds. */
  queued: { waiting: number; active: number };
  /** Worker tags it requires; absent: none. */
  requires?: readonly string[];
  /** Names of the workers blocked for it by hand (for it, or for every job). */
  blocked?: ReadonlySet<string>;
}

/**
 * Why a render's chunks wait, when something other than busy workers holds them back: the queue is
 * paused, no worker is connected, none carries the tags it requires, none (of those) has its Blender
 * version or can draw its engine, every one that could is blocked for it by hand, or out of disk
 * space. Null otherwise.
 */
export function waitingNote(render: WaitingRender, workers: readonly WorkerInfo[], paused: boolean): string | null {
  const chosen = render.blender;
  const requires = render.requires ?? [];
  if (chosen !== null && render.queued.waiting === 0) return null;
  if (paused) return WAITING_NOTES.paused;
  if (chosen !== null && render.queued.active > 0) return null;
  const tagged = workers.filter((w) => missingTags(requires, w.tags).length === 0);
  if (tagged.length === 0) return requires.length > 0 ? waitingForTags(requires) : WAITING_NOTES.noWorkers;
  const which = requires.length > 0 ? `render worker tagged ${tagsInWords(requires)}` : 'render worker';
  if (chosen === null) return `Waiting: no ${which} has Blender ${render.saved ?? '(the scene\'s)'} or newer`;
  const fitting = tagged.filter((w) => fitsChunk(w, { blender: chosen, engine: render.engine }));
  if (fitting.length === 0) {
    const drawing = needsDrawing(render.engine) && tagged.some((w) => w.blenderVersion === chosen);
    return `Waiting: no ${which} with Blender ${chosen}${drawing ? ` that can render ${engineName(render.engine!)}` : ''} is connected`;
  }
  const free = fitting.filter((w) => render.blocked?.has(w.name) !== true);
  if (free.length === 0) return WAITING_NOTES.blocked;
  return free.every((w) => w.state === 'disk-full') ? WAITING_NOTES.disksFull : null;
}
