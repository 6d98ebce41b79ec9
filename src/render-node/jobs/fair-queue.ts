/** A render waiting for a slot, or holding one, with the key (user) it belongs to. */
export interface QueuedRender {
  id: string;
  userId: string;
}

/** A render holding a slot since `startedAt` (ms). */
export interface RunningRender extends QueuedRender {
  startedAt: number;
}

function runningPerUser(running: readonly QueuedRender[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of running) counts.set(r.userId, (counts.get(r.userId) ?? 0) + 1);
  return counts;
}

/**
 * Which waiting renders to start in the free slots, round-robin between keys: each slot goes to the
 * key with the fewest renders running, then to the key whose last render started longest ago, then
 * to the oldest waiting render. Within a key, renders start in queue order. `waiting` is in queue
 * order; `lastStarted` holds when each key last got a slot (ms).
 */
export function pickRenders(
  waiting: readonly QueuedRender[],
  running: readonly QueuedRender[],
  slots: number,
  lastStarted: ReadonlyMap<string, number>,
): QueuedRender[] {
  const counts = runningPerUser(running);
  const started = new Map(lastStarted);
  const left = [...waiting];
  const picked: QueuedRender[] = [];
  let latest = Math.max(0, ...started.values()) + 1;
  for (let free = slots - running.length; free > 0 && left.length > 0; free--) {
    let best = 0;
    for (let i = 1; i < left.length; i++) {
      const a = left[i]!;
      const b = left[best]!;
      const byCount = (counts.get(a.userId) ?? 0) - (counts.get(b.userId) ?? 0);
      const byTurn = (started.get(a.userId) ?? -Infinity) - (started.get(b.userId) ?? -Infinity);
      if (byCount < 0 || (byCount === 0 && byTurn < 0)) best = i;
    }
    const next = left.splice(best, 1)[0]!;
    picked.push(next);
    counts.set(next.userId, (counts.get(next.userId) ?? 0) + 1);
    started.set(next.userId, latest++);
  }
  return picked;
}

/**
 * Whether a running render should give its slot up (at the next frame boundary): it has had its turn
 * (`turnMs`), and another key with fewer renders running has one waiting.
 */
export function shouldYield(
  render: RunningRender,
  waiting: readonly QueuedRender[],
  running: readonly QueuedRender[],
  now: number,
  turnMs: number,
): boolean {
  if (now - render.startedAt < turnMs) return false;
  const counts = runningPerUser(running);
  const mine = counts.get(render.userId) ?? 0;
  return waiting.some((w) => w.userId !== render.userId && (counts.get(w.userId) ?? 0) < mine);
}
