/** A render ahead of a waiting one, as the start estimate reads it. */
export interface RenderAhead {
  /** Frames it has still to render. */
  framesLeft: number;
  /** Average seconds one of its frames took so far; null before its first frame (then its time is unknown). */
  secondsPerFrame: number | null;
  /** It holds a slot but gives it up at its next frame (its priority is lower than the waiting render's). */
  yieldsAtNextFrame?: boolean;
}

/**
 * What takes the renders: `slots` renders at once, each whole on one slot (the node's own Blender), or
 * `split` over `slots` workers that share every render's frames (render workers); null or 0 slots: none can.
 */
export interface StartCapacity {
  slots: number | null;
  split: boolean;
}

/** Seconds of work a render ahead still holds its slot for; null when unknown. */
function secondsLeft(render: RenderAhead): number | null {
  if (render.framesLeft <= 0) return 0;
  if (render.secondsPerFrame === null) return null;
  return render.secondsPerFrame * (render.yieldsAtNextFrame ? 1 : render.framesLeft);
}

/**
 * In how many seconds a waiting render starts, from the remaining time of the renders ahead of it
 * (in the order they take slots: those holding one first): over workers that share the frames, their
 * whole remaining time divided by the workers; over whole-render slots, when the first slot frees up
 * once each render ahead has taken the slot that frees first. Null when it cannot be known: no slot or
 * worker can take it, or a render ahead has no frame yet to time it by.
 */
export function estimateStart(ahead: readonly RenderAhead[], capacity: StartCapacity): number | null {
  const slots = capacity.slots ?? 0;
  if (slots <= 0) return null;
  const times: number[] = [];
  for (const render of ahead) {
    const left = secondsLeft(render);
    if (left === null) return null;
    times.push(left);
  }
  if (capacity.split) return Math.round(times.reduce((sum, t) => sum + t, 0) / slots);
  const free = new Array<number>(slots).fill(0);
  for (const t of times) {
    let first = 0;
    for (let i = 1; i < free.length; i++) if (free[i]! < free[first]!) first = i;
    free[first]! += t;
  }
  return Math.round(Math.min(...free));
}
