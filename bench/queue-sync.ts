import { JobTracker } from '../src/core/tracking/tracker';
import type { Timers } from '../src/core/util/clock';
import { runPool } from '../src/core/util/concurrency';
import { ConnectionService } from '../src/host/profiles/connection-service';
import { HostEvents } from '../src/host/environment/host-events';
import { ProfileJobs } from '../src/host/jobs/profile-jobs';
import { JobSync } from '../src/host/jobs/job-sync';
import { SubmittedJobs } from '../src/host/jobs/submitted-jobs';
import { startBenchNode, type BenchNode } from './lib/bench-node';
import { checkQueueSync, refuseImpossible } from './lib/checks';
import { runBench, throwIfInterrupted } from './lib/cleanup';
import { intOption } from './lib/options';
import { countsBetween, RequestCounter, type RequestCounts } from './lib/request-counter';
import { fixed, loadNote, printTable, writeResults } from './lib/report';
import { putJobInStatus } from '../test/helpers/job-status';

const jobCount = intOption('jobs', 15);
const rendering = intOption('rendering', 5, 0);
const minutes = intOption('minutes', 2);
/** The naive poller's interval: every job read, and the list read for new jobs, this often. */
const NAIVE_MS = intOption('naive-interval-ms', 3_000);
/** When another machine adds a job, in simulated seconds from the start of a run. */
const NEW_JOB_AT_MS = 20_000;

type Scenario = 'idle' | 'active';
type Poller = 'app' | 'naive';

interface RunResult {
  scenario: Scenario;
  poller: Poller;
  counts: RequestCounts;
  /** Requests the poller made (through {@link VirtualTime.track}) while the node counted. */
  made: number;
  perMinute: number;
  /** Simulated seconds until the job added by another machine was in the queue. */
  newJobSeenAfterS: number | null;
  /** Simulated seconds until a rendering job's `completed` reached the queue. */
  completionSeenAfterS: number | null;
}

/**
 * Time that moves only when the benchmark says: timers fire in order, and each firing waits until
 * the requests it started have been answered, so a simulated minute takes a moment of real time.
 */
class VirtualTime {
  now = Date.now();
  readonly #timers = new Map<number, { at: number; run: () => void }>();
  #next = 1;
  pending = 0;
  /** Requests started through {@link track}. */
  made = 0;

  readonly timers: Timers = {
    setTimeout: (run, ms) => {
      const id = this.#next++;
      this.#timers.set(id, { at: this.now + Math.max(0, ms), run });
      return id;
    },
    clearTimeout: (id) => {
      if (typeof id === 'number') this.#timers.delete(id);
    },
  };

  readonly clock = { now: () => this.now };

  /** Wraps a request so the clock waits for it. */
  track<T>(promise: Promise<T>): Promise<T> {
    this.made++;
    this.pending++;
    return promise.finally(() => this.pending--);
  }

  async settle(): Promise<void> {
    for (let quiet = 0; quiet < 3; ) {
      await new Promise((resolve) => setImmediate(resolve));
      quiet = this.pending === 0 ? quiet + 1 : 0;
    }
  }

  /** Runs every timer due until `until`, moving the clock to each; `each` runs whenever the clock moved. */
  async runUntil(until: number, each: () => void): Promise<void> {
    for (;;) {
      throwIfInterrupted();
      await this.settle();
      let first: [number, { at: number; run: () => void }] | null = null;
      for (const entry of this.#timers) if (!first || entry[1].at < first[1].at) first = entry;
      if (!first || first[1].at > until) break;
      this.#timers.delete(first[0]);
      this.now = first[1].at;
      each();
      first[1].run();
    }
    this.now = until;
    each();
    await this.settle();
  }
}

/** Puts jobs straight into the node's database: `rendering` of them rendering (frames to go), the rest completed. */
function seedJobs(bench: BenchNode, label: string, total: number, active: number): string[] {
  const { jobs } = bench.test.node.ctx;
  return Array.from({ length: total }, (_, i) => {
    const slug = `bench-sync-${label}-${i}`;
    const job = jobs.create({ userId: 'bench', uploadSlug: slug, sceneFile: { fileName: `${label}-${i}.blend`, fileType: 'blend', size: 1, slug, scenePath: `${label}-${i}.blend` } });
    const to = i < active ? 'rendering' : 'completed';
    const moved = putJobInStatus(bench.test.node.ctx, job.id, to, { totalFrames: 1_000, completedFrames: i < active ? 0 : 1_000, queuedAt: new Date().toISOString() });
    if (!moved) throw new Error('could not seed a benchmark job');
    return job.id;
  });
}

function addJob(bench: BenchNode, label: string): string {
  const slug = `bench-sync-${label}-new`;
  return bench.test.node.ctx.jobs.create({ userId: 'bench', uploadSlug: slug, sceneFile: { fileName: `${label}-new.blend`, fileType: 'blend', size: 1, slug, scenePath: `${label}-new.blend` } }).id;
}

function retire(bench: BenchNode, ids: readonly string[]): void {
  for (const id of ids) bench.test.node.ctx.jobs.transition(id, ['rendering', 'created'], 'canceled');
}

/** The app's queue: the same ProfileJobs, JobTracker and JobSync as a profile session, with its default rhythm, on virtual time. */
async function runApp(bench: BenchNode, counter: RequestCounter, scenario: Scenario): Promise<RunResult> {
  return measure(bench, counter, scenario, 'app', async (time, _ids, seen) => {
    const client = bench.client;
    const tracked = {
      getAllProgress: (options?: Parameters<typeof client.getAllProgress>[0]) => time.track(client.getAllProgress(options)),
      getJob: (id: string, options?: Parameters<typeof client.getJob>[1]) => time.track(client.getJob(id, options)),
      listJobs: (query: Parameters<typeof client.listJobs>[0], options?: Parameters<typeof client.listJobs>[1]) => time.track(client.listJobs(query, options)),
    };
    const events = new HostEvents();
    const connection = new ConnectionService({ events, clock: time.clock, blocked: null });
    const tracker = new JobTracker({ client: tracked, clock: time.clock, timers: time.timers, activeIntervalMs: 1_000, idleIntervalMs: 15_000 });
    const jobs = new ProfileJobs({ client, profileId: 'bench', events, connection, submitted: new SubmittedJobs(), tracker });
    tracker.on('job', ({ job }) => jobs.put(job));
    tracker.on('progress', ({ jobId, completedFrames, totalFrames }) => jobs.queue.patch(jobId, (s) => ({ ...s, completedFrames, totalFrames })));
    const sync = new JobSync({ client: tracked, jobs, tracker, events, clock: time.clock, timers: time.timers });
    events.subscribe((event) => {
      if (event.name === 'job.updated') seen(event.payload.id, event.payload.status);
    });
    await jobs.load();
    sync.start();
    return () => {
      sync.close();
      tracker.stop();
      jobs.close();
    };
  });
}

/** A naive poller: the list for new jobs, then every job it knows read one by one, every few seconds. */
async function runNaive(bench: BenchNode, counter: RequestCounter, scenario: Scenario): Promise<RunResult> {
  return measure(bench, counter, scenario, 'naive', async (time, _ids, seen) => {
    const known = new Set<string>();
    let stopped = false;
    const poll = async () => {
      const list = await time.track(bench.client.listJobs({ page: 1, pageSize: 100 }));
      for (const job of list.jobs) known.add(job.id);
      await runPool([...known], 4, async (id) => {
        const job = await time.track(bench.client.getJob(id));
        seen(id, job.status);
      });
      if (!stopped) time.timers.setTimeout(() => void poll(), NAIVE_MS);
    };
    await poll();
    return () => {
      stopped = true;
    };
  });
}

async function measure(
  bench: BenchNode,
  counter: RequestCounter,
  scenario: Scenario,
  poller: Poller,
  start: (time: VirtualTime, ids: string[], seen: (id: string, status: string) => void) => Promise<() => void>,
): Promise<RunResult> {
  const label = `${scenario}-${poller}`;
  const ids = seedJobs(bench, label, jobCount, scenario === 'active' ? rendering : 0);
  const time = new VirtualTime();
  const startedAt = time.now;
  const statuses = new Map<string, string>();
  let newJob: string | null = null;
  let newJobSeenAt: number | null = null;
  let completionSeenAt: number | null = null;
  let completedAt: number | null = null;
  const seen = (id: string, status: string) => {
    statuses.set(id, status);
    if (id === newJob && newJobSeenAt === null) newJobSeenAt = time.now;
    if (scenario === 'active' && id === ids[0] && status === 'completed' && completionSeenAt === null) completionSeenAt = time.now;
  };
  const stop = await start(time, ids, seen);
  await time.settle();
  const before = counter.snapshot();
  const madeBefore = time.made;
  const end = startedAt + minutes * 60_000;
  let lastSecond = 0;
  await time.runUntil(end, () => {
    const second = Math.floor((time.now - startedAt) / 1000);
    if (newJob === null && time.now - startedAt >= NEW_JOB_AT_MS) newJob = addJob(bench, label);
    if (scenario === 'active') {
      for (; lastSecond < second; lastSecond++) {
        for (const id of ids.slice(0, rendering)) bench.test.node.ctx.jobs.recordFrame(id, lastSecond + 1, `/bench/${id}/${lastSecond + 1}.png`, 1);
      }
      if (completedAt === null && time.now - startedAt >= 40_000) {
        putJobInStatus(bench.test.node.ctx, ids[0]!, 'completed', { completedFrames: 1_000 });
        completedAt = time.now;
      }
    }
  });
  const counts = countsBetween(before, counter.snapshot());
  const made = time.made - madeBefore;
  stop();
  await time.settle();
  retire(bench, [...ids, ...(newJob ? [newJob] : [])]);
  return {
    scenario,
    poller,
    counts,
    made,
    perMinute: counts.total / minutes,
    newJobSeenAfterS: newJobSeenAt === null ? null : (newJobSeenAt - startedAt - NEW_JOB_AT_MS) / 1000,
    completionSeenAfterS: completionSeenAt === null || completedAt === null ? null : (completionSeenAt - completedAt) / 1000,
  };
}

async function main(): Promise<void> {
  console.log(
    `Queue sync benchmark: ${jobCount} jobs on a real node (a fresh one per run; idle: all completed; active: ${rendering} rendering, one frame a second), ` +
      `${minutes} simulated minute(s) per run; another machine adds a job after ${NEW_JOB_AT_MS / 1000} s. Naive poller: the job list and every job every ${NAIVE_MS / 1000} s. ${loadNote()}`,
  );
  const results: RunResult[] = [];
  for (const scenario of ['idle', 'active'] as const) {
    for (const run of [runApp, runNaive]) {
      const bench = await startBenchNode();
      const counter = new RequestCounter(bench.test.node.app.server);
      try {
        results.push(await run(bench, counter, scenario));
      } finally {
        counter.detach();
        await bench.stop();
      }
    }
  }

  refuseImpossible('queue-sync', checkQueueSync({ minutes, newJobAtS: NEW_JOB_AT_MS / 1000, results }));
  printTable(
    'Requests counted at the node (simulated time)',
    ['scenario', 'poller', 'requests', 'progress', 'job reads', 'other (list)', 'req/min', 'new job seen after', 'completion seen after'],
    results.map((r) => [
      r.scenario,
      r.poller === 'app' ? 'renderdrop (list sync + tracker)' : `naive (every ${NAIVE_MS / 1000} s)`,
      String(r.counts.total),
      String(r.counts.progress),
      String(r.counts.jobReads),
      String(r.counts.other),
      fixed(r.perMinute, 1),
      r.newJobSeenAfterS === null ? 'never' : `${fixed(r.newJobSeenAfterS, 1)} s`,
      r.completionSeenAfterS === null ? '–' : `${fixed(r.completionSeenAfterS, 1)} s`,
    ]),
  );
  const ratios: Record<string, number> = {};
  for (const scenario of ['idle', 'active'] as const) {
    const app = results.find((r) => r.scenario === scenario && r.poller === 'app')!;
    const naive = results.find((r) => r.scenario === scenario && r.poller === 'naive')!;
    ratios[scenario] = naive.perMinute / app.perMinute;
    console.log(`${scenario}: naive / renderdrop requests per minute = ${fixed(ratios[scenario], 1)} (${fixed(naive.perMinute, 1)} against ${fixed(app.perMinute, 1)})`);
  }
  await writeResults('queue-sync', { config: { jobs: jobCount, rendering, minutes, naiveIntervalMs: NAIVE_MS, newJobAtMs: NEW_JOB_AT_MS }, results, ratios });
}

await runBench(main);
