import { afterEach, describe, expect, it } from 'vitest';
import { statusesLeadingTo } from '../../../src/render-node/store/job-states';
import { FakeExecutor } from '../helpers/fake-executor';
import { startRunner, until, type HarnessOptions, type RunnerHarness } from '../helpers/runner-harness';

let h: RunnerHarness | null = null;

async function harness(options: HarnessOptions = {}): Promise<RunnerHarness> {
  h = await startRunner(options);
  return h;
}

afterEach(async () => {
  await h?.close();
  h = null;
});

const statusOf = (t: RunnerHarness, id: string) => t.jobs.get(id)!.status;

/** Cancel a job as `POST /jobs/{id}/cancel` does: the status first, then the work. */
async function cancel(t: RunnerHarness, id: string): Promise<void> {
  expect(t.jobs.transition(id, statusesLeadingTo('canceled'), 'canceled', {}, 'canceled by request')).not.toBeNull();
  await t.runner.abort(id);
}

it('the runner renders a job, counts its frames, packages it and announces it completed', async () => {
  const t = await harness();
  const job = t.queueRender('alice', '1-3');
  await until(() => statusOf(t, job.id) === 'completed', 'the job completed');
  expect(t.jobs.get(job.id)).toMatchObject({ completedFrames: 3, totalFrames: 3 });
  expect(t.jobs.events(job.id).map((e) => e.status)).toEqual(['created', 'validating', 'validated', 'booting', 'rendering', 'finalizing', 'completed']);
  expect(t.completed).toEqual([job.id]);
  expect(t.runner.isRunning(job.id)).toBe(false);
});

describe('turns between keys', () => {
  it("gives the next free slot to the key whose last render started longest ago, not to the queue's head", async () => {
    const t = await harness({ renders: 1 });
    const a1 = t.queueRender('alice', '1-2', { kind: 'manual' });
    const first = await t.executor.whenRunning(a1.id);
    const a2 = t.queueRender('alice');
    const b1 = t.queueRender('bob');
    await first.complete();
    await until(() => t.completed.length === 3, 'all three jobs completed');
    expect(t.executor.started).toEqual([a1.id, b1.id, a2.id]);
  });

  it("makes a render give way at a frame boundary once its turn is over and another key's render waits", async () => {
    const t = await harness({ renders: 1, renderTurnMs: 60_000 });
    const long = t.queueRender('alice', '1-4', { kind: 'manual' }, { kind: 'all-frames' });
    const render = await t.executor.whenRunning(long.id);
    const other = t.queueRender('bob', '1');
    expect(await render.frame()).toBe(true);
    expect(render.aborted).toBe(false);
    t.clock.now += 60_001;
    expect(await render.frame()).toBe(true);
    await until(() => render.aborted, 'the long render stopped for the other key');
    await until(() => t.completed.length === 2, 'both jobs completed');
    expect(t.completed).toEqual([other.id, long.id]);
    expect(t.executor.started).toEqual([long.id, other.id, long.id]);
    expect(t.jobs.get(long.id)!.completedFrames).toBe(4);
  });

  it('hands the render its frames across the shot first, and one that gave way resumes with the frames left in that order', async () => {
    const t = await harness({ renders: 1, renderTurnMs: 60_000 });
    const long = t.queueRender('alice', '1-9', { kind: 'manual' }, { kind: 'manual' });
    const first = await t.executor.whenRunning(long.id);
    expect(first.task.plan.frames).toEqual([1, 9, 5, 3, 7, 2, 4, 6, 8]);
    expect(t.jobs.get(long.id)!.renderPlan!.frames).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const other = t.queueRender('bob', '1');
    expect(await first.frame()).toBe(true);
    expect(await first.frame()).toBe(true);
    t.clock.now += 60_001;
    expect(await first.frame()).toBe(true);
    await until(() => first.aborted, 'the long render gave way');
    await until(() => t.completed.includes(other.id), 'the other key\'s job completed');
    const resumed = await t.executor.whenRunning(long.id);
    const written = new Set(t.jobs.frames(long.id).map((f) => f.frame));
    expect(resumed.task.plan.frames.filter((f) => !written.has(f))).toEqual([3, 7, 2, 4, 6, 8]);
    expect(t.jobs.frames(long.id, 'written').map((f) => f.frame)).toEqual([1, 9, 5]);
    await resumed.complete();
    await until(() => t.completed.includes(long.id), 'the long job completed');
    expect(t.jobs.frames(long.id, 'written').map((f) => f.frame)).toEqual([1, 9, 5, 3, 7, 2, 4, 6, 8]);
  });

  it('lets a render of a distributed executor keep its slot (workers share themselves)', async () => {
    const t = await harness({ executor: new FakeExecutor('distributed'), renders: 1, renderTurnMs: 0 });
    const long = t.queueRender('alice', '1-2', { kind: 'manual' });
    const render = await t.executor.whenRunning(long.id);
    t.queueRender('bob', '1');
    await render.frame();
    expect(render.aborted).toBe(false);
    await render.complete();
    await until(() => t.completed.length === 2, 'both jobs completed');
    expect(t.completed[0]).toBe(long.id);
  });
});

describe('limits', () => {
  it('runs at most `renders` renders at once, and more once configured so', async () => {
    const t = await harness({ renders: 2 });
    const ids = ['a', 'b', 'c'].map((user) => t.queueRender(user, '1-2', { kind: 'manual' }).id);
    await until(() => t.executor.runningJobs().length === 2, 'two renders run');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(t.executor.runningJobs().sort()).toEqual(ids.slice(0, 2).sort());
    expect(statusOf(t, ids[2]!)).toBe('booting');
    t.runner.configure({ renders: 3 });
    await t.executor.whenRunning(ids[2]!);
    expect(t.runner.settings().renders).toBe(3);
  });

  it('fails a render that runs past the time limit of one job, keeping the frames it wrote', async () => {
    const t = await harness({ limits: { jobTimeLimitMs: 40 } });
    const job = t.queueRender('alice', '1-3', { kind: 'manual' });
    const render = await t.executor.whenRunning(job.id);
    await render.frame(0.001);
    await until(() => statusOf(t, job.id) === 'failed', 'the job failed');
    expect(render.aborted).toBe(true);
    expect(t.jobs.get(job.id)).toMatchObject({ completedFrames: 1, failedReason: { name: 'TimeLimitExceeded', type: 'limit' } });
    expect(t.jobs.get(job.id)!.failedReason!.message).toMatch(/1 of 3 frames were rendered/);
  });

  it('fails a resumed render at once when its frames already used the time allowed', async () => {
    const t = await harness({ limits: { jobTimeLimitMs: 1000 } });
    const job = t.queueRender('alice', '1-3', { kind: 'manual' });
    const render = await t.executor.whenRunning(job.id);
    await render.frame(2);
    await t.restart();
    await until(() => statusOf(t, job.id) === 'failed', 'the job failed');
    expect(t.jobs.get(job.id)!.failedReason).toMatchObject({ name: 'TimeLimitExceeded' });
    expect(t.executor.started).toEqual([]);
  });
});

describe('cancel', () => {
  it('never starts a queued render that was canceled', async () => {
    const t = await harness({ renders: 1 });
    const running = t.queueRender('alice', '1-2', { kind: 'manual' });
    const render = await t.executor.whenRunning(running.id);
    const queued = t.queueRender('bob');
    await cancel(t, queued.id);
    expect(t.executor.canceled).toEqual([queued.id]);
    await render.complete();
    await until(() => t.completed.length === 1, 'the running job completed');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(t.executor.started).toEqual([running.id]);
    expect(statusOf(t, queued.id)).toBe('canceled');
  });

  it('stops a running render, keeps the frames it counted and frees the slot', async () => {
    const t = await harness({ renders: 1 });
    const job = t.queueRender('alice', '1-3', { kind: 'manual' });
    const render = await t.executor.whenRunning(job.id);
    await render.frame();
    const next = t.queueRender('bob', '1');
    await cancel(t, job.id);
    expect(render.aborted).toBe(true);
    expect(t.executor.canceled).toEqual([job.id]);
    await until(() => t.completed.includes(next.id), 'the next job completed');
    expect(t.jobs.get(job.id)).toMatchObject({ status: 'canceled', completedFrames: 1 });
    expect(t.runner.isRunning(job.id)).toBe(false);
  });
});

describe('a full disk', () => {
  it('fails the job whose frames Blender could not write, naming disk space, and renders the next', async () => {
    const t = await harness({ renders: 1 });
    const full = t.queueRender('alice', '1-3', { kind: 'disk-full', framesFirst: 1 });
    const next = t.queueRender('bob', '1-2');
    await until(() => t.completed.includes(next.id), 'the next job completed');
    expect(t.jobs.get(full.id)).toMatchObject({ status: 'failed', completedFrames: 1, failedReason: { name: 'DiskFull', type: 'disk' } });
    expect(t.jobs.get(full.id)!.failedReason!.message).toMatch(/ran out of disk space: 2 of 3 frames could not be written/);
  });

  it('fails the job when the executor itself throws for lack of space, and renders the next', async () => {
    const t = await harness({ renders: 1 });
    const full = t.queueRender('alice', '1-2', { kind: 'disk-full', how: 'thrown' });
    const next = t.queueRender('bob');
    await until(() => t.completed.includes(next.id), 'the next job completed');
    expect(t.jobs.get(full.id)!.failedReason).toMatchObject({ name: 'DiskFull', message: expect.stringMatching(/disk space: the render could not write what it needed/) });
  });

  it('refuses to start a render whose frames would not fit, before the executor runs', async () => {
    const t = await harness({ headroomBytes: Number.MAX_SAFE_INTEGER });
    const job = t.queueRender('alice');
    await until(() => statusOf(t, job.id) === 'failed', 'the job failed');
    expect(t.jobs.get(job.id)!.failedReason).toMatchObject({ name: 'DiskFull', message: expect.stringMatching(/disk space/) });
    expect(t.executor.started).toEqual([]);
  });
});

it('fails a job with the reason its executor gives, and tells the executor to stop it everywhere', async () => {
  const t = await harness();
  const job = t.queueRender('alice', '1-2', { kind: 'fail', reason: { name: 'NoWorkers', type: 'render', message: 'No render worker is connected.' } });
  await until(() => statusOf(t, job.id) === 'failed', 'the job failed');
  expect(t.jobs.get(job.id)!.failedReason).toMatchObject({ name: 'NoWorkers' });
  expect(t.executor.canceled).toEqual([job.id]);
});

it('resumes a render left in rendering when the runner starts again on the same data', async () => {
  const t = await harness();
  const job = t.queueRender('alice', '1-3', { kind: 'manual' });
  const render = await t.executor.whenRunning(job.id);
  await render.frame();
  await t.restart();
  expect(render.aborted).toBe(true);
  await until(() => t.completed.includes(job.id), 'the resumed job completed');
  expect(t.executor.started).toEqual([job.id]);
  expect(t.jobs.get(job.id)!.completedFrames).toBe(3);
  expect(t.jobs.events(job.id).map((e) => e.status)).toEqual(['created', 'validating', 'validated', 'booting', 'rendering', 'finalizing', 'completed']);
});
