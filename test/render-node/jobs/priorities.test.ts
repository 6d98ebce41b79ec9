import { afterEach, expect, it } from 'vitest';
import { FakeExecutor } from '../helpers/fake-executor';
import { startRunner, until, type RunnerHarness } from '../helpers/runner-harness';

let h: RunnerHarness | null = null;

afterEach(async () => {
  await h?.close();
  h = null;
});

it('starts waiting renders by priority, then by turns between keys, then by age', async () => {
  const t = (h = await startRunner({ renders: 1 }));
  const first = t.queueRender('alice', '1', { kind: 'manual' });
  const render = await t.executor.whenRunning(first.id);
  const queued = [
    { key: 'bob', priority: 20 },
    { key: 'alice', priority: 80 },
    { key: 'alice', priority: 80 },
    { key: 'carol', priority: 80 },
    { key: 'bob', priority: 50 },
  ].map(({ key, priority }) => {
    const job = t.queueRender(key, '1');
    t.jobs.patch(job.id, { priority });
    return job.id;
  });
  await render.complete();
  await until(() => t.completed.length === 6, 'every job completed');
  const [bob20, alice80a, alice80b, carol80, bob50] = queued;
  // 80s first: carol's (alice just had a slot), then alice's oldest, then her next; then 50, then 20.
  expect(t.executor.started).toEqual([first.id, carol80, alice80a, alice80b, bob50, bob20]);
});

it('makes a running render give its slot up at its next frame, within its turn, to a waiting render of a higher priority', async () => {
  const t = (h = await startRunner({ renders: 1, renderTurnMs: 3_600_000 }));
  const long = t.queueRender('alice', '1-4', { kind: 'manual' }, { kind: 'all-frames' });
  const render = await t.executor.whenRunning(long.id);
  const same = t.queueRender('bob', '1');
  expect(await render.frame()).toBe(true);
  expect(render.aborted).toBe(false);

  const urgent = t.queueRender('alice', '1-2');
  t.jobs.patch(urgent.id, { priority: 90 });
  await t.runner.settingsChanged(t.jobs.get(urgent.id)!);
  expect(render.aborted).toBe(false);
  expect(await render.frame()).toBe(true);
  await until(() => render.aborted, 'the long render gave its slot up');
  await until(() => t.completed.length === 3, 'every job completed');
  expect(t.completed[0]).toBe(urgent.id);
  expect(t.executor.started.slice(0, 2)).toEqual([long.id, urgent.id]);
  expect(t.completed).toContain(same.id);
  expect(t.jobs.get(long.id)).toMatchObject({ status: 'completed', completedFrames: 4 });
});

it('keeps the slot when a waiting render of the same priority arrives within its turn', async () => {
  const t = (h = await startRunner({ renders: 1, renderTurnMs: 3_600_000 }));
  const long = t.queueRender('alice', '1-3', { kind: 'manual' });
  const render = await t.executor.whenRunning(long.id);
  const other = t.queueRender('bob', '1');
  t.jobs.patch(other.id, { priority: 50 });
  await render.frame();
  await render.frame();
  expect(render.aborted).toBe(false);
  await render.complete();
  await until(() => t.completed.length === 2, 'both jobs completed');
  expect(t.completed).toEqual([long.id, other.id]);
});

it('on render workers, hands a render of a higher priority to the workers at once when every slot is held, and no other', async () => {
  const t = (h = await startRunner({ executor: new FakeExecutor('distributed'), renders: 1 }));
  const first = t.queueRender('alice', '1', { kind: 'manual' });
  const render = await t.executor.whenRunning(first.id);
  const same = t.queueRender('bob', '1', { kind: 'manual' });
  const urgent = t.queueRender('carol', '1', { kind: 'manual' });
  t.jobs.patch(urgent.id, { priority: 90 });
  await t.runner.settingsChanged(t.jobs.get(urgent.id)!);
  await t.executor.whenRunning(urgent.id);
  expect(t.executor.runningJobs().sort()).toEqual([first.id, urgent.id].sort());
  expect(render.aborted).toBe(false);
  await render.complete();
  await (await t.executor.whenRunning(urgent.id)).complete();
  await (await t.executor.whenRunning(same.id)).complete();
  await until(() => t.completed.length === 3, 'every job completed');
  expect(t.executor.started).toEqual([first.id, urgent.id, same.id]);
});
