/** A render waiting for a slot, or holding one, with the key (user) it belongs to and its priority (0-100). */
export interface QueuedRender {
  id: string;
  userId: string;
  priority: number;
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
 * Which waiting renders to start in the free slots: the highest priority first; between renders of
 * one priority, round-robin between keys: the key with the fewest renders running, then the key whose
 * last render started longest ago, then the oldest waiting render. Within a key, renders of one
 * priority start in queue order. `waiting` is in queue order; `lastStarted` holds when each key last
 * got a slot (ms).
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
      const byPriority = a.priority - b.priority;
      if (byPriority < 0) continue;
      const byCount = (counts.get(a.userId) ?? 0) - (counts.get(b.userId) ?? 0);
      const byTurn = (started.get(a.userId) ?? -Infinity) - (started.get(b.userId) ?? -Infinity);
      if (byPriority > 0 || byCount < 0 || (byCount === 0 && byTurn < 0)) best = i;
    }
    const next = left.splice(best, 1)[0]!;
    picked.push(next);
    counts.set(next.userId, (counts.get(next.userId) ?? 0) + 1);
    started.set(next.userId, latest++);
  }
  return picked;
}

/**
 * Whether a running render should give its slot up (at the next frame boundary):
 * - a waiting render has a strictly higher priority, and this one is among the running renders it
 *   displaces (the lowest priorities first, the latest started first among equals; free slots first);
 * - or it has had its turn (`turnMs`), and another key with fewer renders running has one of the same
 *   priority waiting.
 * `slots` is how many renders may run at once (default: as many as run now).
 */
export function shouldYield(
  render: RunningRender,
  waiting: readonly QueuedRender[],
  running: readonly RunningRender[],
  now: number,
  turnMs: number,
  slots = running.length,
): boolean {
  const higher = waiting.filter((w) => w.priority > render.priority).length;
  if (higher > 0) {
    const before = running.filter((r) => r.id !== render.id && (r.priority < render.priority || (r.priority === render.priority && (r.startedAt > render.startedAt || (r.startedAt === render.startedAt && r.id > render.id))))).length;
    if (higher > before + Math.max(0, slots - running.length)) return true;
  }
  if (now - render.startedAt < turnMs) return false;
  const counts = runningPerUser(running);
  const mine = counts.get(render.userId) ?? 0;
  return waiting.some((w) => w.priority === render.priority && w.userId !== render.userId && (counts.get(w.userId) ?? 0) < mine);
}

/**
 * How many renders the node coordinates at once on render workers: `slots`, and when they are all held,
 * enough more for every waiting render of a higher priority than the lowest one holding a slot (up to
 * twice `slots` in all). There a slot only means the node coordinates the render, and workers take
 * chunks by priority, so an urgent job's chunks join the queue at once instead of after a render ends.
 */
export function slotsOnWorkers(waiting: readonly QueuedRender[], running: readonly QueuedRender[], slots: number): number {
  if (running.length < slots || running.length === 0) return slots;
  const lowest = Math.min(...running.map((r) => r.priority));
  const urgent = waiting.filter((w) => w.priority > lowest).length;
  return running.length + Math.max(0, Math.min(urgent, 2 * slots - running.length));
}
