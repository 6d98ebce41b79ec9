import { afterEach, describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../src/render-node/store/jobs-repo';
import { placeInLine, type RenderLine } from '../../../src/render-node/jobs/waiting-line';
import { startRunner, until, type RunnerHarness } from '../helpers/runner-harness';

let h: RunnerHarness | null = null;

afterEach(async () => {
  await h?.close();
  h = null;
});

it('says how many renders are ahead of one waiting for a slot, and nothing once it holds one', async () => {
  const t = (h = await startRunner({ renders: 1 }));
  const first = t.queueRender('alice', '1-2', { kind: 'manual' });
  const render = await t.executor.whenRunning(first.id);
  const second = t.queueRender('alice', '1');
  const third = t.queueRender('alice', '1');
  expect(t.runner.waitingFor(t.jobs.get(first.id)!)).toBeNull();
  expect(t.runner.waitingFor(t.jobs.get(second.id)!)).toMatchObject({ jobsAhead: 1 });
  expect(t.runner.waitingFor(t.jobs.get(third.id)!)).toMatchObject({ jobsAhead: 2 });
  await render.complete();
  await until(() => t.completed.length === 3, 'all three jobs completed');
  expect(t.runner.waitingFor(t.jobs.get(third.id)!)).toBeNull();
});

it('says when a waiting render starts from the frames the renders ahead have left and their seconds per frame so far', async () => {
  const t = (h = await startRunner({ renders: 1 }));
  const first = t.queueRender('alice', '1-4', { kind: 'manual' }, { kind: 'all-frames' });
  const render = await t.executor.whenRunning(first.id);
  const second = t.queueRender('bob', '1-3');
  const third = t.queueRender('carol', '1');
  expect(t.runner.waitingFor(t.jobs.get(second.id)!)).toEqual({ jobsAhead: 1, startsInSeconds: null });
  await render.frame(10);
  await render.frame(20);
  // 2 frames left at 15 s a frame.
  expect(t.runner.waitingFor(t.jobs.get(second.id)!)).toEqual({ jobsAhead: 1, startsInSeconds: 30 });
  // The second render has no frame yet: nothing can be said of when the third starts.
  expect(t.runner.waitingFor(t.jobs.get(third.id)!)).toEqual({ jobsAhead: 2, startsInSeconds: null });

  // Raised above the running render, the third starts at its next frame (about 15 s), ahead of the second.
  t.jobs.patch(third.id, { priority: 90 });
  await Promise.resolve(); // the line is read once for the calls of one moment (a list of jobs)
  expect(t.runner.waitingFor(t.jobs.get(third.id)!)).toEqual({ jobsAhead: 1, startsInSeconds: 15 });
  expect(t.runner.waitingFor(t.jobs.get(second.id)!)).toEqual({ jobsAhead: 2, startsInSeconds: null });
  await render.frame(15);
  await until(() => t.completed.length === 3, 'all three jobs completed');
  // Then, between the two of priority 50, bob's turn: alice's render had a slot already.
  expect(t.completed).toEqual([third.id, second.id, first.id]);
});

/** A render as the line reads it: `done` of `total` frames. */
function rec(id: string, priority: number, done: number, total: number, status: JobRecord['status'] = 'booting'): JobRecord {
  return { id, priority, completedFrames: done, totalFrames: total, status } as JobRecord;
}

describe('placeInLine over render workers (frames shared by the workers)', () => {
  const line = (renders: JobRecord[], workers: number | null, seconds: Record<string, number>): RenderLine => ({
    renders,
    split: true,
    holding: (r) => r.status !== 'booting',
    capacity: () => workers,
    secondsPerFrame: (r) => seconds[r.id] ?? null,
  });

  it('counts the renders of a higher priority, then those of its priority queued before it, over the workers that can take it', () => {
    const renders = [rec('old', 50, 4, 10, 'rendering'), rec('low', 10, 1, 100, 'rendering'), rec('me', 50, 0, 5), rec('urgent', 90, 2, 8, 'rendering'), rec('later', 50, 0, 5)];
    const seconds = { old: 10, low: 1, urgent: 5 };
    // old: 6 frames x 10 s; urgent: 6 x 5 s; the lower priority one started earlier is not ahead: 90 s over 3 workers.
    expect(placeInLine('me', line(renders, 3, seconds))).toEqual({ jobsAhead: 2, startsInSeconds: 30 });
    expect(placeInLine('later', line(renders, 3, seconds))).toEqual({ jobsAhead: 3, startsInSeconds: null });
    expect(placeInLine('old', line(renders, 3, seconds))).toBeNull();
  });

  it('gives no number without a worker that can take it', () => {
    expect(placeInLine('me', line([rec('me', 50, 0, 5)], 0, {}))).toEqual({ jobsAhead: 0, startsInSeconds: null });
    expect(placeInLine('me', line([rec('me', 50, 0, 5)], null, {}))).toEqual({ jobsAhead: 0, startsInSeconds: null });
    expect(placeInLine('me', line([rec('me', 50, 0, 5)], 2, {}))).toEqual({ jobsAhead: 0, startsInSeconds: 0 });
  });
});
