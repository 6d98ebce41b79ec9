import { describe, expect, it } from 'vitest';
import { AuthError, ContractError, InvalidStateError, NetworkError, NotFoundError, RateLimitedError, ServerError } from '../../../src/core/errors';
import { trackerWaiter } from '../../../src/core/lifecycle/wait-for-job';
import { isFatalTrackingError, JobTracker, type TrackerEvents } from '../../../src/core/tracking/tracker';
import type { Job } from '../../../src/shared/api/job';
import { FakeFarm } from '../../helpers/fake-farm';
import { FakeTime } from '../../helpers/fake-time';

function setup(options: Partial<ConstructorParameters<typeof JobTracker>[0]> = {}) {
  const farm = new FakeFarm();
  const time = new FakeTime();
  const tracker = new JobTracker({ client: farm, clock: time, timers: time.timers, ...options });
  const events: { type: keyof TrackerEvents; payload: unknown }[] = [];
  for (const type of ['status', 'progress', 'completed', 'failed', 'canceled', 'error'] as const) {
    tracker.on(type, (payload) => events.push({ type, payload }));
  }
  return { farm, time, tracker, events };
}

async function flush() {
  for (let i = 0; i < 10; i++) await Promise.resolve();
  await new Promise((r) => setImmediate(r));
}

describe('JobTracker', () => {
  it('uses one progress request per tick for 50 merely rendering jobs', async () => {
    const { farm, tracker } = setup();
    for (let i = 0; i < 50; i++) tracker.watch(`job-${i}`, farm.add(`job-${i}`, 'rendering', 100));
    await tracker.refresh();
    const jobReadsAfterFirst = farm.calls.job;
    for (let i = 0; i < 30; i++) await tracker.refresh();
    expect(farm.calls.progress).toBe(31);
    expect(jobReadsAfterFirst).toBe(50);
    expect(farm.calls.job - jobReadsAfterFirst).toBe(0);
  });

  it('reads a job only when its state may have changed, and emits progress, status and completion', async () => {
    const { farm, tracker, events } = setup();
    farm.add('a', 'rendering', 2);
    tracker.watch('a');
    await tracker.refresh();
    expect(farm.calls.job).toBe(1);
    await tracker.refresh();
    expect(farm.calls.job).toBe(2);
    await tracker.refresh();
    expect(farm.calls.job).toBe(3);
    expect(events.map((e) => e.type)).toEqual(['progress', 'status', 'progress', 'status', 'status', 'completed']);
    expect(events.find((e) => e.type === 'completed')!.payload).toMatchObject({ job: { id: 'a', status: 'completed' } });
    expect(tracker.list()).toEqual([]);
  });

  it('reads a job again when its frames move while it was last read as booting (the badge follows the render)', async () => {
    const server: { status: 'booting' | 'rendering'; completed: number; reads: number } = { status: 'booting', completed: 0, reads: 0 };
    const job = (): Job => ({ id: 'a', status: server.status, workspaceId: 'w', createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z' });
    const tracker = new JobTracker({
      client: {
        getAllProgress: async () => [{ jobId: 'a', completedFrames: server.completed, totalFrames: 12 }],
        getJob: async () => {
          server.reads++;
          return job();
        },
      },
    });
    const statuses: string[] = [];
    tracker.on('status', ({ job: read }) => statuses.push(read.status));
    tracker.watch('a');
    await tracker.refresh();
    expect(statuses).toEqual(['booting']);
    server.status = 'rendering';
    server.completed = 4;
    await tracker.refresh();
    expect(statuses).toEqual(['booting', 'rendering']);
    const reads = server.reads;
    server.completed = 5;
    await tracker.refresh();
    expect(server.reads).toBe(reads);
    tracker.stop();
  });

  it('reads a job waiting for its turn every few seconds, so when it starts (or why it cannot) stays current', async () => {
    const server = { message: 'Waiting for a render worker tagged big-ram', reads: 0 };
    let now = 0;
    const tracker = new JobTracker({
      clock: { now: () => now },
      waitingReadMs: 5_000,
      client: {
        getAllProgress: async () => [{ jobId: 'a', completedFrames: 0, totalFrames: 8 }],
        getJob: async () => {
          server.reads++;
          return { id: 'a', status: 'booting', workspaceId: 'w', createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z', statusMessage: server.message, waiting: { jobsAhead: 0, startsInSeconds: null } };
        },
      },
    });
    const messages: unknown[] = [];
    tracker.on('job', ({ job }) => messages.push(job.statusMessage));
    tracker.watch('a');
    await tracker.refresh();
    now = 1_000;
    await tracker.refresh();
    expect(server.reads).toBe(1);
    server.message = 'Starts in about 4 min';
    now = 6_000;
    await tracker.refresh();
    expect(server.reads).toBe(2);
    expect(messages).toEqual(['Waiting for a render worker tagged big-ram', 'Starts in about 4 min']);
    tracker.stop();
  });

  it('emits failed and canceled', async () => {
    const { farm, tracker, events } = setup();
    farm.add('f', 'rendering', 10);
    farm.add('c', 'validating');
    tracker.watch('f');
    tracker.watch('c');
    await tracker.refresh();
    farm.setStatus('f', 'failed');
    farm.setStatus('c', 'canceled');
    await tracker.refresh();
    expect(events.filter((e) => e.type === 'failed' || e.type === 'canceled').map((e) => e.type).sort()).toEqual(['canceled', 'failed']);
  });

  it('ticks fast while something is active and backs off when idle', async () => {
    const { farm, time, tracker } = setup({ activeIntervalMs: 1000, idleIntervalMs: 15_000 });
    farm.add('v', 'validated');
    tracker.watch('v');
    tracker.start();
    const gaps: number[] = [];
    for (let i = 0; i < 6; i++) {
      time.runNext();
      await flush();
      gaps.push(time.pending()[0]!);
    }
    expect(gaps).toEqual([2000, 4000, 8000, 15_000, 15_000, 15_000]);
    farm.add('r', 'rendering', 50);
    tracker.watch('r');
    expect(time.pending()).toEqual([0]);
    time.runNext();
    await flush();
    expect(time.pending()).toEqual([1000]);
    tracker.stop();
  });

  it('slows down when rate limited and reports the error', async () => {
    const { farm, time, tracker, events } = setup({ activeIntervalMs: 1000 });
    farm.add('r', 'rendering', 50);
    tracker.watch('r');
    farm.failNextProgress.push(new RateLimitedError('slow down', { retryAfterMs: 10_000 }));
    tracker.start();
    time.runNext();
    await flush();
    expect(events.at(-1)).toMatchObject({ type: 'error', payload: { retryInMs: 10_000 } });
    expect(time.pending()).toEqual([10_000]);
    tracker.pause();
    expect(time.pending()).toEqual([]);
  });

  it('waits as long as a 429 asks, even beyond its longest backoff', async () => {
    const { farm, time, tracker, events } = setup({ activeIntervalMs: 1000, maxErrorBackoffMs: 60_000 });
    tracker.watch('r', farm.add('r', 'rendering', 50));
    farm.failNextProgress.push(new RateLimitedError('slow down', { retryAfterMs: 300_000 }));
    tracker.start();
    time.runNext();
    await flush();
    expect(events.at(-1)).toMatchObject({ type: 'error', payload: { retryInMs: 300_000, fatal: false } });
    expect(time.pending()).toEqual([300_000]);
    tracker.stop();
  });

  it('marks errors that retrying cannot fix as fatal, and transient ones not', () => {
    for (const error of [new AuthError('key', { status: 401 }), new ContractError('GET /jobs/progress', '', 'bad'), new InvalidStateError('no', { status: 400 }), new NotFoundError('gone', { status: 404 })]) {
      expect(isFatalTrackingError(error), error.name).toBe(true);
    }
    for (const error of [new NetworkError('down', { maybeApplied: false }), new ServerError('boom', { status: 503 }), new RateLimitedError('slow'), new Error('odd')]) {
      expect(isFatalTrackingError(error), error.name).toBe(false);
    }
  });

  it('lets waiters give up on a fatal error and keep waiting through transient ones', async () => {
    const { farm, time, tracker, events } = setup({ activeIntervalMs: 1000 });
    farm.add('a', 'rendering', 50);
    farm.add('b', 'rendering', 50);
    const wait = trackerWaiter(tracker);
    const outcomes = ['a', 'b'].map((id) => wait(id, (job) => job.status === 'completed').then(() => 'done', (error: unknown) => error));
    await flush();
    farm.failNextProgress.push(new ServerError('The server failed (503).', { status: 503 }), new NetworkError('down', { maybeApplied: false }));
    time.runNext();
    await flush();
    time.runNext();
    await flush();
    expect(events.filter((e) => e.type === 'error').map((e) => (e.payload as { fatal: boolean }).fatal)).toEqual([false, false]);
    let settled = false;
    void Promise.race(outcomes).then(() => (settled = true));
    await flush();
    expect(settled).toBe(false);
    const rejected = new AuthError('API key rejected (401).', { status: 401 });
    farm.failNextProgress.push(rejected);
    time.runNext();
    await flush();
    expect(events.at(-1)).toMatchObject({ type: 'error', payload: { fatal: true } });
    expect(await Promise.all(outcomes)).toEqual([rejected, rejected]);
    tracker.stop();
  });

  it('reads a stale waiting job again, a few per tick', async () => {
    const { farm, time, tracker } = setup({ staleAfterMs: 60_000, staleRefreshesPerTick: 1 });
    for (const id of ['a', 'b', 'c']) tracker.watch(id, farm.add(id, 'validated'));
    await tracker.refresh();
    expect(farm.calls.job).toBe(0);
    time.current += 61_000;
    await tracker.refresh();
    expect(farm.calls.job).toBe(1);
    await tracker.refresh();
    expect(farm.calls.job).toBe(2);
  });

  it('reads a job on demand with refresh(jobId)', async () => {
    const { farm, tracker, events } = setup();
    tracker.watch('v', farm.add('v', 'validated'));
    farm.setStatus('v', 'booting');
    await tracker.refresh('v');
    expect(farm.calls.job).toBe(1);
    expect(events.find((e) => e.type === 'status')!.payload).toMatchObject({ previous: 'validated', job: { status: 'booting' } });
  });

  it('drops a job the server no longer knows', async () => {
    const { tracker, events } = setup();
    tracker.watch('ghost');
    await tracker.refresh();
    expect(tracker.list()).toEqual([]);
    expect(events[0]).toMatchObject({ type: 'error', payload: { jobId: 'ghost', fatal: true } });
  });
});
