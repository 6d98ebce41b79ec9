import type { WorkerInfo } from '../../shared/api';
import { engineName, needsDrawing } from '../plan';
import { fitsChunk } from './blender-versions';

/** What a render waits for when its chunks sit in the queue and no worker takes them. */
export const WAITING_NOTES = {
  paused: 'Waiting: the render queue is paused',
  noWorkers: 'Waiting: no render worker is connected',
  disksFull: 'Waiting: every render worker is out of disk space',
} as const;

/** What {@link waitingNote} reads of a render. */
export interface WaitingRender {
  /** The Blender version its chunks render with; null while none is chosen. */
  blender: string | null;
  /** The Blender series that saved the scene, when known (a version is chosen from any worker when it is not). */
  saved: string | null;
  engine: string | null;
  /** Its unfinished chunks waiting in the queue (or handed over), and those a worker holds. */
  queued: { waiting: number; active: number };
}

/**
 * Why a render's chunks wait, when something other than busy workers holds them back: the queue is
 * paused, no worker is connected, none has the render's Blender version (or can draw its engine), or
 * every one that has is out of disk space. Null otherwise.
 */
export function waitingNote(render: WaitingRender, workers: readonly WorkerInfo[], paused: boolean): string | null {
  const chosen = render.blender;
  if (chosen !== null && render.queued.waiting === 0) return null;
  if (paused) return WAITING_NOTES.paused;
  if (chosen !== null && render.queued.active > 0) return null;
  if (workers.length === 0) return WAITING_NOTES.noWorkers;
  if (chosen === null) return `Waiting: no render worker has Blender ${render.saved ?? '(the scene\'s)'} or newer`;
  const fitting = workers.filter((w) => fitsChunk(w, { blender: chosen, engine: render.engine }));
  if (fitting.length === 0) {
    const drawing = needsDrawing(render.engine) && workers.some((w) => w.blenderVersion === chosen);
    return `Waiting: no render worker with Blender ${chosen}${drawing ? ` that can render ${engineName(render.engine!)}` : ''} is connected`;
  }
  return fitting.every((w) => w.state === 'disk-full') ? WAITING_NOTES.disksFull : null;
}
