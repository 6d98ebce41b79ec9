import { afterEach, expect, it } from 'vitest';
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
  expect(t.runner.waitingFor(t.jobs.get(second.id)!)).toEqual({ jobsAhead: 1 });
  expect(t.runner.waitingFor(t.jobs.get(third.id)!)).toEqual({ jobsAhead: 2 });
  await render.complete();
  await until(() => t.completed.length === 3, 'all three jobs completed');
  expect(t.runner.waitingFor(t.jobs.get(third.id)!)).toBeNull();
});
