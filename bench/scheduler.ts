/**
 * The scheduler's choice with many jobs waiting, against one job waiting, in the same run: for each
 * chunk handed out, the node's choice of the render to start next (`pickRenders` by priority, turns
 * between keys and age, among the waiting renders, 32 renders holding a slot) and a worker's take of the
 * next chunk from BullMQ's prioritized set on a real Redis (`--workers` workers taking at once, each
 * chunk put back afterwards so the queue keeps its size). Prints the time per chunk and the ratio many /
 * one, and checks that every take took the highest priority waiting. Needs redis-server.
 */
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { requireRedis, startRedis } from '../test/helpers/redis';
import { pickRenders, type QueuedRender } from '../src/render-node/jobs/fair-queue';
import { chunkPriority } from '../src/render-node/distributed/executor/chunk-priority';
import { checkScheduler, refuseImpossible, type SchedulerFigures } from './lib/checks';
import { onCleanup, runBench, throwIfInterrupted } from './lib/cleanup';
import { intOption } from './lib/options';
import { fixed, loadNote, median, printTable, writeResults } from './lib/report';

const RUNS = intOption('runs', 5);
const JOBS = intOption('jobs', 1000);
const WORKERS = intOption('workers', 50);
const ROUNDS = intOption('rounds', 20);
const CHUNKS_PER_JOB = intOption('chunks-per-job', 4);
/** Renders holding a slot (the distributed runner hands up to 32 to the workers). */
const RUNNING = 32;
const KEYS = 10;
const PREFIX = 'rd-bench-scheduler';
/** About the size of a real chunk's data (signed URLs, plan). */
const PAYLOAD = 'x'.repeat(1500);

/** Numbers from a fixed seed, so both scenarios and every run see the same kind of farm. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

interface Scenario {
  label: string;
  jobs: number;
  waiting: QueuedRender[];
  running: QueuedRender[];
  lastStarted: Map<string, number>;
  queue: Queue;
  workers: Worker[];
  figures: SchedulerFigures['scenarios'][number] & { chunksQueued: number[] };
  pickSamples: number[];
  takeSamples: number[];
}

async function scenario(redisUrl: string, jobs: number): Promise<Scenario> {
  const random = seeded(jobs);
  const priority = () => Math.floor(random() * 101);
  const waiting = Array.from({ length: jobs }, (_, i) => ({ id: `job-${i}`, userId: `key-${i % KEYS}`, priority: priority() }));
  const running = Array.from({ length: RUNNING }, (_, i) => ({ id: `run-${i}`, userId: `key-${Math.floor(random() * KEYS)}`, priority: priority() }));
  const lastStarted = new Map(Array.from({ length: KEYS }, (_, i) => [`key-${i}`, Math.floor(random() * 1000)] as const));
  // Enough chunks for every worker to take one at once, however few jobs wait.
  const chunksPerJob = Math.max(CHUNKS_PER_JOB, Math.ceil(WORKERS / jobs));
  const name = `chunks-${jobs}`;
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(name, { connection, prefix: PREFIX });
  onCleanup(async () => {
    await queue.close();
    connection.disconnect();
  });
  await queue.addBulk(
    waiting.flatMap((render) =>
      Array.from({ length: chunksPerJob }, (_, n) => ({ name: 'chunk', data: { job: render.id, n, payload: PAYLOAD }, opts: { priority: chunkPriority(render.priority), removeOnComplete: true } })),
    ),
  );
  const workers = Array.from({ length: WORKERS }, () => new Worker(name, null, { connection: { url: redisUrl, maxRetriesPerRequest: null }, prefix: PREFIX, autorun: false }));
  onCleanup(() => Promise.all(workers.map((w) => w.close(true))).then(() => undefined));
  const label = `${jobs} job${jobs === 1 ? '' : 's'} waiting`;
  const figures = { label, jobs, chunksPerJob, chunksQueued: [], taken: 0, empty: 0, picks: 0, picksOfTop: 0, orderBreaks: 0, pickUs: 0, takeUs: 0, perChunkUs: 0 };
  return { label, jobs, waiting, running, lastStarted, queue, workers, figures, pickSamples: [], takeSamples: [] };
}

/** One round: the node chooses a render for each of `--workers` slots, then every worker takes a chunk at once. */
async function round(s: Scenario, round: number): Promise<void> {
  const top = Math.max(...s.waiting.map((w) => w.priority));
  const slots = RUNNING + 1;
  const pickStarted = performance.now();
  const picked: QueuedRender[] = [];
  for (let i = 0; i < WORKERS; i++) picked.push(pickRenders(s.waiting, s.running, slots, s.lastStarted)[0]!);
  s.pickSamples.push(((performance.now() - pickStarted) * 1000) / WORKERS);
  s.figures.picks += picked.length;
  s.figures.picksOfTop += picked.filter((r) => r.priority === top).length;

  s.figures.chunksQueued.push(await s.queue.getPrioritizedCount());
  const tokens = s.workers.map((_, i) => `r${round}-w${i}`);
  const takeStarted = performance.now();
  const taken = await Promise.all(s.workers.map((w, i) => w.getNextJob(tokens[i]!, { block: false }) as Promise<Job | undefined>));
  s.takeSamples.push(((performance.now() - takeStarted) * 1000) / WORKERS);
  const got = taken.filter((job): job is Job => job !== undefined && job !== null);
  s.figures.taken += got.length;
  s.figures.empty += taken.length - got.length;
  const worstTaken = Math.max(...got.map((job) => job.priority));
  const bestLeft = (await s.queue.getPrioritized(0, 0))[0]?.priority ?? Infinity;
  if (worstTaken > bestLeft) s.figures.orderBreaks++;
  await Promise.all(got.map((job, i) => job.moveToCompleted('done', tokens[taken.indexOf(job)] ?? tokens[i]!, false)));
  await s.queue.addBulk(got.map((job) => ({ name: 'chunk', data: job.data, opts: { priority: job.priority, removeOnComplete: true } })));
}

async function main(): Promise<void> {
  const redisServer = requireRedis();
  if (!redisServer) throw new Error('redis-server is needed for this benchmark (apt install redis-server).');
  const redis = await startRedis(redisServer);
  onCleanup(() => redis.dispose());
  const few = await scenario(redis.url, 1);
  const many = await scenario(redis.url, JOBS);
  console.log(`${WORKERS} workers taking at once, ${RUNNING} renders holding a slot, ${CHUNKS_PER_JOB} chunks per job (the lone job: ${few.figures.chunksPerJob}), ${ROUNDS} rounds per run, ${RUNS} runs`);
  console.log(loadNote());
  for (let run = 0; run < RUNS; run++) {
    for (const s of run % 2 === 0 ? [few, many] : [many, few]) {
      for (let r = 0; r < ROUNDS; r++) {
        throwIfInterrupted();
        await round(s, run * ROUNDS + r);
      }
    }
  }
  for (const s of [few, many]) {
    s.figures.pickUs = median(s.pickSamples);
    s.figures.takeUs = median(s.takeSamples);
    s.figures.perChunkUs = s.figures.pickUs + s.figures.takeUs;
  }
  const ratio = many.figures.perChunkUs / few.figures.perChunkUs;
  const figures: SchedulerFigures = { workers: WORKERS, takesPerWorker: ROUNDS, runs: RUNS, scenarios: [few.figures, many.figures], ratio };
  refuseImpossible('scheduler', checkScheduler(figures));
  printTable(`per chunk handed out, median of ${RUNS * ROUNDS} rounds`, ['jobs waiting', 'chunks queued', 'choice µs', 'take µs', 'per chunk µs', 'ratio'], [
    ...[few, many].map((s) => [s.label, String(s.jobs * s.figures.chunksPerJob), fixed(s.figures.pickUs, 1), fixed(s.figures.takeUs, 1), fixed(s.figures.perChunkUs, 1), fixed(s.figures.perChunkUs / few.figures.perChunkUs)]),
  ]);
  console.log(`\nper chunk, ${JOBS} jobs waiting / 1 job waiting: ${fixed(ratio)} (aim: at most 1.50) ${ratio <= 1.5 ? 'met' : 'NOT met'}`);
  console.log(`every take took the highest priority waiting: ${many.figures.orderBreaks + few.figures.orderBreaks === 0 ? 'yes' : 'NO'}`);
  console.log(loadNote());
  await writeResults('scheduler', {
    jobs: JOBS,
    workers: WORKERS,
    rounds: ROUNDS,
    runs: RUNS,
    chunksPerJob: CHUNKS_PER_JOB,
    running: RUNNING,
    scenarios: [few, many].map((s) => ({ ...s.figures, pickSamplesUs: s.pickSamples, takeSamplesUs: s.takeSamples })),
    ratio,
    goals: { ratioWithin1_5: ratio <= 1.5 },
  });
}

await runBench(main);
