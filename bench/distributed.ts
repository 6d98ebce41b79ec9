/**
 * The distributed node against the embedded one, in the same run: a 16-frame scene rendered by two
 * render workers (separate processes, one Blender thread each) on a real Redis, against the embedded
 * runner (one Blender on all cores, two on this machine). Prints the wall time of each (render request
 * to `completed`), their ratio (aim: at most 1.1), the scheduling overhead per chunk, and Blender's
 * own start-up per chunk. Needs Blender and redis-server.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pino from 'pino';
import { makeSampleScene, requireBlender } from '../test/helpers/blender';
import { startTestNode, uploadBytes, waitForJob, type TestNode } from '../test/helpers/node';
import { requireRedis, startRedis } from '../test/helpers/redis';
import { startWorkerProcess, stopWorker } from '../test/helpers/workers';
import { probeBlender } from '../src/render-node/blender/probe';
import { CHUNK_QUEUE, REDIS_PREFIX } from '../src/render-node/distributed/protocol';
import { onCleanup, runBench, throwIfInterrupted } from './lib/cleanup';
import { intOption, option } from './lib/options';
import { fixed, loadNote, median, printTable, writeResults } from './lib/report';

const RUNS = intOption('runs', 2);
const FRAMES = intOption('frames', 16);
const SAMPLES = intOption('samples', 64);
const PERCENTAGE = intOption('percentage', 400);
const CHUNK_SIZE = option('chunk-size', 'auto');

interface ChunkReturn {
  worker: string;
  timings: { startedAt: number; blenderStartedAt: number | null; blenderEndedAt: number | null; endedAt: number };
}

interface Run {
  mode: 'embedded' | 'distributed';
  ms: number;
  /** Sum of Blender's own time per frame (s), from the node's record. */
  frameSeconds: number;
  /** Commands Redis processed during the render (distributed only). */
  redisCommands?: number;
  chunks?: ChunkReturn[];
  renderStartedAt: number;
}

async function validated(node: TestNode, bytes: Buffer): Promise<string> {
  const slug = await uploadBytes(node, 'bench.blend', bytes);
  const job = (await node.call('POST', '/jobs', { slug })).json;
  await node.call('POST', `/jobs/${job.id}/validate`);
  const done = await waitForJob(node, job.id, (j) => j.status !== 'validating');
  if (done.status !== 'validated') throw new Error(`validation ended ${done.status}: ${JSON.stringify(done.failedReason)}`);
  return job.id as string;
}

async function render(node: TestNode, id: string, mode: Run['mode']): Promise<Run> {
  const renderStartedAt = Date.now();
  const started = performance.now();
  await node.call('POST', `/jobs/${id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', sampleCount: SAMPLES, resolutionPercentage: PERCENTAGE } });
  const done = await waitForJob(node, id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 1_800_000);
  const ms = performance.now() - started;
  if (done.status !== 'completed') throw new Error(`${mode} render ended ${done.status}: ${JSON.stringify(done.failedReason)}`);
  const frameSeconds = node.node.ctx.jobs.frames(id).reduce((sum, f) => sum + f.seconds, 0);
  return { mode, ms, frameSeconds, renderStartedAt };
}

/**
 * Scheduling overhead of each chunk: the wait for a worker to take it (from the render request for a
 * worker's first chunk, from its previous chunk's end after that), the worker's preparation (status,
 * scene, scratch folder) before Blender starts, and the uploads still running after Blender exits.
 */
function overheadPerChunk(run: Run): { scheduling: number[]; blenderStartup: number[] } {
  const chunks = [...run.chunks!].sort((a, b) => a.timings.startedAt - b.timings.startedAt);
  const lastEnd = new Map<string, number>();
  const scheduling: number[] = [];
  for (const c of chunks) {
    const t = c.timings;
    const pickup = t.startedAt - (lastEnd.get(c.worker) ?? run.renderStartedAt);
    lastEnd.set(c.worker, t.endedAt);
    scheduling.push(pickup + ((t.blenderStartedAt ?? t.endedAt) - t.startedAt) + (t.endedAt - (t.blenderEndedAt ?? t.endedAt)));
  }
  const blenderMs = chunks.reduce((sum, c) => sum + ((c.timings.blenderEndedAt ?? 0) - (c.timings.blenderStartedAt ?? 0)), 0);
  const startup = (blenderMs - run.frameSeconds * 1000) / chunks.length;
  return { scheduling, blenderStartup: [startup] };
}

async function main(): Promise<void> {
  const blenderPath = requireBlender();
  if (!blenderPath) throw new Error('Blender is needed for this benchmark (install it, or set BLENDER_PATH).');
  const redisServer = requireRedis();
  if (!redisServer) throw new Error('redis-server is needed for this benchmark (apt install redis-server).');
  const work = await mkdtemp(join(tmpdir(), 'rd-bench-dist-'));
  onCleanup(() => rm(work, { recursive: true, force: true }));
  const redis = await startRedis(redisServer);
  onCleanup(() => redis.dispose());
  const blender = await probeBlender(blenderPath, { timeoutMs: 60_000 });
  const bytes = await readFile(await makeSampleScene(work, { frames: FRAMES }));
  const logger = pino({ level: 'warn' }, pino.destination(2));
  const chunkSize = CHUNK_SIZE === 'auto' ? null : Number(CHUNK_SIZE);
  const embedded = await startTestNode({ blender, logger });
  onCleanup(() => embedded.stop());
  const distributed = await startTestNode({ blender, logger, distributed: { redis: { url: redis.url }, chunkSize } });
  onCleanup(() => distributed.stop());
  const workers = await Promise.all(
    ['w1', 'w2'].map((name) => startWorkerProcess({ redis: redis.url, node: distributed.url, name, cacheDir: join(work, `cache-${name}`), blender: blenderPath, threads: 1 })),
  );
  onCleanup(() => Promise.all(workers.map((w) => stopWorker(w))));
  const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
  const queue = new Queue(CHUNK_QUEUE, { connection, prefix: REDIS_PREFIX });
  onCleanup(async () => {
    await queue.close();
    connection.disconnect();
  });

  const commands = async () => Number(/total_commands_processed:(\d+)/.exec(await connection.info('stats'))?.[1]);
  const idleFrom = await commands();
  const idleStarted = performance.now();
  await new Promise((r) => setTimeout(r, 5000));
  const idlePerSecond = (await commands() - idleFrom) / ((performance.now() - idleStarted) / 1000);

  console.log(`${FRAMES} frames at ${PERCENTAGE} % with ${SAMPLES} samples, Blender ${blender.version}, ${cpus().length} CPUs, chunk size ${CHUNK_SIZE}`);
  console.log(loadNote());
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    const order: Run['mode'][] = i % 2 === 0 ? ['embedded', 'distributed'] : ['distributed', 'embedded'];
    for (const mode of order) {
      throwIfInterrupted();
      const node = mode === 'embedded' ? embedded : distributed;
      const id = await validated(node, bytes);
      const before = await commands();
      const run = await render(node, id, mode);
      if (mode === 'distributed') {
        run.redisCommands = (await commands()) - before - idlePerSecond * (run.ms / 1000);
        run.chunks = (await queue.getJobs(['completed'])).filter((j) => j.data.jobId === id).map((j) => j.returnvalue as ChunkReturn);
      }
      runs.push(run);
      console.log(`run ${i + 1} ${mode.padEnd(11)} ${(run.ms / 1000).toFixed(2)} s`);
    }
  }

  const embeddedMs = median(runs.filter((r) => r.mode === 'embedded').map((r) => r.ms));
  const distributedRuns = runs.filter((r) => r.mode === 'distributed');
  const distributedMs = median(distributedRuns.map((r) => r.ms));
  const overheads = distributedRuns.map(overheadPerChunk);
  const scheduling = median(overheads.flatMap((o) => o.scheduling));
  const startup = median(overheads.flatMap((o) => o.blenderStartup));
  const chunks = distributedRuns[0]?.chunks?.length ?? 0;
  const redisPerJob = median(distributedRuns.map((r) => r.redisCommands ?? Number.NaN));
  const ratio = distributedMs / embeddedMs;
  printTable(`render request to completed, median of ${RUNS}`, ['mode', 'wall s', 'ratio'], [
    [`embedded (one Blender, all ${cpus().length} cores)`, fixed(embeddedMs / 1000), '1.00'],
    [`distributed (2 workers x 1 thread, ${chunks} chunks)`, fixed(distributedMs / 1000), fixed(ratio)],
  ]);
  console.log(`\ndistributed / embedded: ${fixed(ratio)} (aim: at most 1.10) ${ratio <= 1.1 ? 'met' : 'NOT met'}`);
  console.log(`scheduling overhead per chunk (median): ${fixed(scheduling, 0)} ms (queue pick-up + scene/status before Blender + uploads after it)`);
  console.log(`Blender start-up and scene load per chunk (median over runs): ${fixed(startup, 0)} ms`);
  console.log(
    `Redis commands per job beyond the idle background (${fixed(idlePerSecond, 1)}/s with 2 workers and 2 nodes): ${fixed(redisPerJob, 0)}, ${fixed(redisPerJob / chunks, 1)} per chunk, ${fixed(redisPerJob / FRAMES, 1)} per frame`,
  );
  console.log(loadNote());
  await writeResults('distributed', {
    frames: FRAMES,
    samples: SAMPLES,
    percentage: PERCENTAGE,
    chunkSize: CHUNK_SIZE,
    blender: blender.version,
    runs,
    medians: { embeddedMs, distributedMs, schedulingOverheadPerChunkMs: scheduling, blenderStartupPerChunkMs: startup, redisCommandsPerJob: redisPerJob },
    redisIdleCommandsPerSecond: idlePerSecond,
    ratio,
    goals: { distributedWithin1_1: ratio <= 1.1 },
  });
}

await runBench(main);
