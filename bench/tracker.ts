import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { JobTracker } from '../src/core/tracking/tracker';
import { runPool } from '../src/core/util/concurrency';
import { DEFAULT_RATE_LIMIT } from '../src/render-node/server';
import { startBenchNode, type BenchNode } from './lib/bench-node';
import { checkTracker, refuseImpossible } from './lib/checks';
import { runBench, throwIfInterrupted } from './lib/cleanup';
import { intOption } from './lib/options';
import { countsBetween, MadeRequestCounter, madeBetween, RequestCounter, type MadeRequests, type RequestCounts } from './lib/request-counter';
import { fixed, loadNote, median, printTable, writeResults } from './lib/report';
import { putJobInStatus } from '../test/helpers/job-status';

const jobCount = intOption('jobs', 50);
const ticks = intOption('ticks', 300, 2);
const realtimeSeconds = intOption('seconds', 10, 0);
/** The tracker's default tick interval while jobs are active, and the naive poller's. */
const INTERVAL_MS = 1_000;
/** Job reads in parallel, for the naive poller as for the tracker (its default). */
const READ_CONCURRENCY = 4;

type Poller = 'tracker' | 'naive';

interface FixedResult {
  poller: Poller;
  ticks: number;
  counts: RequestCounts;
  /** Requests the poller made, counted on its side. */
  made: MadeRequests;
  firstTick: number;
  /** Requests per tick after the first. */
  laterPerTick: number;
  maxPerTick: number;
  medianTickMs: number;
  /** At one tick per INTERVAL_MS. */
  perMinute: number;
  responseKiBPerMinute: number;
}

interface RealtimeResult {
  poller: Poller;
  seconds: number;
  counts: RequestCounts;
  made: MadeRequests;
  perMinute: number;
}

/** `count` jobs put straight into `rendering` with the node's own repo, each with `frames` frames to go. */
function renderingJobs(bench: BenchNode, count: number, frames: number): string[] {
  const { jobs } = bench.test.node.ctx;
  return Array.from({ length: count }, (_, i) => {
    const slug = `bench-tracker-${i}`;
    const job = jobs.create({ userId: 'bench', uploadSlug: slug, sceneFile: { fileName: `shot-${i}.blend`, fileType: 'blend', size: 1, slug, scenePath: `shot-${i}.blend` } });
    const moved = putJobInStatus(bench.test.node.ctx, job.id, 'rendering', { totalFrames: frames, completedFrames: 0, queuedAt: new Date().toISOString() });
    if (!moved) throw new Error('could not put a benchmark job into rendering');
    return job.id;
  });
}

/** Every job writes its next frame, as a render would. */
function advance(bench: BenchNode, ids: readonly string[], frame: number): void {
  for (const id of ids) bench.test.node.ctx.jobs.recordFrame(id, frame, `/bench/${id}/frame_${frame}.png`, 1);
}

/** Ends the jobs of one measurement so they leave `GET /jobs/progress`; fails if the node moved them meanwhile. */
function retire(bench: BenchNode, ids: readonly string[]): void {
  for (const id of ids) {
    if (!bench.test.node.ctx.jobs.transition(id, ['rendering'], 'canceled')) {
      throw new Error(`job ${id} left rendering during the benchmark (${bench.test.node.ctx.jobs.get(id)?.status}); the measurement is void`);
    }
  }
}

async function fixedTicks(bench: BenchNode, counter: RequestCounter, poller: Poller): Promise<FixedResult> {
  const ids = renderingJobs(bench, jobCount, ticks * 2);
  let now = Date.now();
  const calls = new MadeRequestCounter(bench.client);
  const tracker = new JobTracker({ client: calls.client, clock: { now: () => now } });
  for (const id of ids) tracker.watch(id);
  const seen = new Map<string, number>();
  const perTick: number[] = [];
  const tickMs: number[] = [];
  const start = counter.snapshot();
  const madeStart = calls.snapshot();
  for (let tick = 1; tick <= ticks; tick++) {
    throwIfInterrupted();
    advance(bench, ids, tick);
    const before = counter.snapshot();
    const started = performance.now();
    if (poller === 'tracker') {
      await tracker.refresh();
    } else {
      await runPool(ids, READ_CONCURRENCY, async (id) => {
        const job = (await calls.client.getJob(id)) as { progress?: { completedFrames?: number } };
        seen.set(id, job.progress?.completedFrames ?? -1);
      });
    }
    tickMs.push(performance.now() - started);
    perTick.push(counter.snapshot().total - before.total);
    now += INTERVAL_MS;
  }
  await calls.settled();
  const counts = countsBetween(start, counter.snapshot());
  const made = madeBetween(madeStart, calls.snapshot());
  if (poller === 'tracker') {
    for (const entry of tracker.list()) seen.set(entry.jobId, entry.progress?.completedFrames ?? -1);
    tracker.stop();
  }
  const behind = ids.filter((id) => seen.get(id) !== ticks);
  if (behind.length > 0) throw new Error(`${poller}: ${behind.length} job(s) not seen at frame ${ticks} after the last tick`);
  retire(bench, ids);
  const minutes = (ticks * INTERVAL_MS) / 60_000;
  return {
    poller,
    ticks,
    counts,
    made,
    firstTick: perTick[0]!,
    laterPerTick: (counts.total - perTick[0]!) / (ticks - 1),
    maxPerTick: Math.max(...perTick.slice(1)),
    medianTickMs: median(tickMs),
    perMinute: counts.total / minutes,
    responseKiBPerMinute: counts.responseBytes / 1024 / minutes,
  };
}

async function realtime(bench: BenchNode, counter: RequestCounter, poller: Poller): Promise<RealtimeResult> {
  const ids = renderingJobs(bench, jobCount, realtimeSeconds * 4 + 10);
  let frame = 0;
  const progressTimer = setInterval(() => advance(bench, ids, ++frame), INTERVAL_MS);
  const calls = new MadeRequestCounter(bench.client);
  const tracker = new JobTracker({ client: calls.client });
  for (const id of ids) tracker.watch(id);
  if (poller === 'tracker') await tracker.refresh();
  await calls.settled();
  const start = counter.snapshot();
  const madeStart = calls.snapshot();
  const started = performance.now();
  const deadline = started + realtimeSeconds * 1000;
  try {
    if (poller === 'tracker') {
      tracker.start();
      await sleep(realtimeSeconds * 1000);
      tracker.stop();
    } else {
      while (performance.now() < deadline) {
        throwIfInterrupted();
        await runPool(ids, READ_CONCURRENCY, async (id) => {
          await calls.client.getJob(id);
        });
        const left = deadline - performance.now();
        if (left > 0) await sleep(Math.min(INTERVAL_MS, left));
      }
    }
  } finally {
    clearInterval(progressTimer);
    tracker.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  await calls.settled();
  const counts = countsBetween(start, counter.snapshot());
  const made = madeBetween(madeStart, calls.snapshot());
  retire(bench, ids);
  return { poller, seconds, counts, made, perMinute: (counts.total / seconds) * 60 };
}

async function main(): Promise<void> {
  console.log(
    `Tracker benchmark: ${jobCount} jobs rendering on a real node, one frame per job per second; ${ticks} ticks at a simulated ${INTERVAL_MS / 1000} s` +
      `${realtimeSeconds > 0 ? `, then ${realtimeSeconds} s in real time` : ''}. ${loadNote()}`,
  );
  const bench = await startBenchNode();
  const counter = new RequestCounter(bench.test.node.app.server);
  const trackerTicks = await fixedTicks(bench, counter, 'tracker');
  const naiveTicks = await fixedTicks(bench, counter, 'naive');
  const live: RealtimeResult[] = [];
  if (realtimeSeconds > 0) {
    live.push(await realtime(bench, counter, 'tracker'));
    live.push(await realtime(bench, counter, 'naive'));
  }
  counter.detach();
  await bench.stop();
  refuseImpossible('tracker', checkTracker({ ticks, fixedTicks: [trackerTicks, naiveTicks], realtime: live.map((r) => ({ ...r, plannedSeconds: realtimeSeconds })) }));

  const label = (poller: Poller) => (poller === 'tracker' ? 'renderdrop JobTracker' : `naive: GET /jobs/{id} x ${jobCount}`);
  printTable(
    `${ticks} ticks, ${jobCount} jobs rendering (requests counted at the node; per minute at one tick per ${INTERVAL_MS / 1000} s)`,
    ['poller', 'requests', 'progress', 'job reads', 'first tick', 'per tick after', 'max tick', 'req/min', 'KiB/min', 'ms/tick'],
    [trackerTicks, naiveTicks].map((r) => [
      label(r.poller),
      String(r.counts.total),
      String(r.counts.progress),
      String(r.counts.jobReads),
      String(r.firstTick),
      fixed(r.laterPerTick),
      String(r.maxPerTick),
      fixed(r.perMinute, 0),
      fixed(r.responseKiBPerMinute, 0),
      fixed(r.medianTickMs, 1),
    ]),
  );
  console.log(
    'The tracker reads every job once on its first tick (watched without a payload), then once more per job every 2 min (staleness refresh, one job per tick).',
  );
  if (live.length > 0) {
    printTable(
      `Real time, ${realtimeSeconds} s each, default rhythm (tracker: its own timers; naive: poll all, wait ${INTERVAL_MS / 1000} s)`,
      ['poller', 'requests', 'progress', 'job reads', 'req/min'],
      live.map((r) => [label(r.poller), String(r.counts.total), String(r.counts.progress), String(r.counts.jobReads), fixed(r.perMinute, 0)]),
    );
    console.log("The tracker's first tick (every job read once) happens before the real-time window opens.");
  }
  const ratio = naiveTicks.counts.total / trackerTicks.counts.total;
  const steadyOk = trackerTicks.laterPerTick < 2;
  console.log(`\nnaive / tracker requests = ${fixed(ratio, 1)} (the tracker makes ${fixed(100 / ratio, 1)}% of the naive requests)`);
  console.log(`tracker requests per tick after the first = ${fixed(trackerTicks.laterPerTick)}, naive = ${fixed(naiveTicks.laterPerTick)} (goal: about one, not ${jobCount}: ${steadyOk ? 'met' : 'NOT met'})`);
  const limitPerMinute = (DEFAULT_RATE_LIMIT.limit * 60_000) / DEFAULT_RATE_LIMIT.windowMs;
  console.log(
    `The node's default rate limit is ${limitPerMinute} requests/min per key (lifted for this run): naive polling needs ${fixed(naiveTicks.perMinute / limitPerMinute, 1)}x that, the tracker ${fixed(trackerTicks.perMinute / limitPerMinute, 2)}x.`,
  );

  await writeResults('tracker', {
    config: { jobs: jobCount, ticks, intervalMs: INTERVAL_MS, readConcurrency: READ_CONCURRENCY, realtimeSeconds },
    fixedTicks: [trackerTicks, naiveTicks],
    realtime: live,
    ratios: { naiveOverTracker: ratio },
    goals: { aboutOneRequestPerTick: steadyOk },
  });
}

await runBench(main);
