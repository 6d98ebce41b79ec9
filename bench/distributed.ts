/**
 * The distributed node against the embedded one, in the same run: a 16-frame scene rendered by two
 * render workers (separate processes, one Blender thread each) on a real Redis, against the embedded
 * runner (one Blender on all cores, two on this machine). Prints the wall time of each (render request
 * to `completed`), their ratio (aim: at most 1.1), the chunks each job had (from the node's record of
 * its chunks), the scheduling overhead per chunk, and Blender's own start-up per chunk (each chunk's
 * worker report against the node's record of its frames). Needs Blender and redis-server.
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
import { ChunksRepo } from '../src/render-node/distributed/chunks-repo';
import { CHUNK_QUEUE, chunkJobId, REDIS_PREFIX } from '../src/render-node/distributed/protocol';
import { checkDistributed, refuseImpossible, type ChunkFigures, type DistributedFigures } from './lib/checks';
import { onCleanup, runBench, throwIfInterrupted } from './lib/cleanup';
import { intOption, option } from './lib/options';
import { fixed, loadNote, median, printTable, writeResults } from './lib/report';

const RUNS = intOption('runs', 2);
const FRAMES = intOption('frames', 16);
const SAMPLES = intOption('samples', 64);
const PERCENTAGE = intOption('percentage', 400);
const CHUNK_SIZE = option('chunk-size', 'auto');

/** What a worker reports for a chunk when it is done (the BullMQ return value of its queue entry). */
interface ChunkReport {
  worker: string;
  outcome: 'delivered' | 'stopped';
  rendered: number;
  timings: { startedAt: number; blenderStartedAt: number | null; blenderEndedAt: number | null; endedAt: number };
}

/** A chunk of the node's record of a job, with its frames and its worker's report. */
interface ReportedChunk {
  index: number;
  frames: number[];
  report: ChunkReport;
}

interface Run {
  mode: 'embedded' | 'distributed';
  ms: number;
  /** Sum of Blender's own time per frame (s), from the node's record. */
  frameSeconds: number;
  /** Frames the node recorded for the job. */
  framesRecorded: number;
  /** Commands Redis processed from the render request to `completed` (distributed only). */
  redisCommands?: number;
  /** Chunks in the node's record of the job (distributed only). */
  chunkRecords?: number;
  /** The chunks of the node's record whose worker reported them done (distributed only). */
  chunks?: ReportedChunk[];
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
  const frames = node.node.ctx.jobs.frames(id);
  return { mode, ms, frameSeconds: frames.reduce((sum, f) => sum + f.seconds, 0), framesRecorded: frames.length, renderStartedAt };
}

/**
 * Every chunk of the node's record of a job, with the report its worker returned. The node completes a
 * job when its last frame counts, and a worker reports its chunk done only after Blender has exited and
 * its last uploads ended, so each chunk's queue entry (by its id, in the generation the node recorded)
 * is waited for. A chunk with no report within `waitMs` is left out, which the checks refuse.
 */
async function reportedChunks(node: TestNode, queue: Queue, id: string, waitMs = 60_000): Promise<{ records: number; chunks: ReportedChunk[] }> {
  const records = new ChunksRepo(node.node.ctx.db).list(id);
  const deadline = Date.now() + waitMs;
  const reported = await Promise.all(
    records.map(async (record): Promise<ReportedChunk | null> => {
      for (;;) {
        const entry = await queue.getJob(chunkJobId(id, record.index, record.generation));
        if (entry?.finishedOn) return entry.returnvalue ? { index: record.index, frames: record.frames, report: entry.returnvalue as ChunkReport } : null;
        if (Date.now() > deadline) return null;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }),
  );
  return { records: records.length, chunks: reported.filter((c): c is ReportedChunk => c !== null) };
}

/**
 * The figures of each chunk of a distributed run. Scheduling overhead: the wait for a worker to take
 * the chunk (from the render request for a worker's first chunk, from its previous chunk's end after
 * that), the worker's preparation (status, scene, scratch folder) before Blender starts, and the
 * uploads still running after Blender exits. Blender's start-up and scene load: its process time
 * beyond the time the node recorded for the chunk's frames.
 */
function chunkFigures(run: Run, frameSeconds: Map<number, number>): ChunkFigures[] {
  const chunks = [...run.chunks!].sort((a, b) => a.report.timings.startedAt - b.report.timings.startedAt);
  const lastEnd = new Map<string, number>();
  return chunks.map(({ index, frames, report }) => {
    const t = report.timings;
    const blenderStartedAt = t.blenderStartedAt ?? t.endedAt;
    const blenderEndedAt = t.blenderEndedAt ?? t.endedAt;
    const pickupMs = t.startedAt - (lastEnd.get(report.worker) ?? run.renderStartedAt);
    lastEnd.set(report.worker, t.endedAt);
    const prepareMs = blenderStartedAt - t.startedAt;
    const afterMs = t.endedAt - blenderEndedAt;
    const blenderMs = blenderEndedAt - blenderStartedAt;
    const frameMs = t.blenderStartedAt === null ? 0 : frames.reduce((sum, f) => sum + (frameSeconds.get(f) ?? 0) * 1000, 0);
    return { index, frames: frames.length, rendered: report.rendered, pickupMs, prepareMs, blenderMs, afterMs, frameMs, startupMs: blenderMs - frameMs, schedulingMs: pickupMs + prepareMs + afterMs };
  });
}

/** A run's figures for the checks (and the results file). */
function runFigures(node: TestNode, id: string, run: Run, workers: number): DistributedFigures['runs'][number] {
  if (run.mode === 'embedded') return { mode: run.mode, ms: run.ms, parallel: 1, frameSeconds: run.frameSeconds, framesRecorded: run.framesRecorded };
  const frameSeconds = new Map(node.node.ctx.jobs.frames(id).map((f) => [f.frame, f.seconds]));
  const chunks = chunkFigures(run, frameSeconds);
  const lastEnd = Math.max(...run.chunks!.map((c) => c.report.timings.endedAt));
  return {
    mode: run.mode,
    ms: run.ms,
    parallel: workers,
    frameSeconds: run.frameSeconds,
    framesRecorded: run.framesRecorded,
    chunkRecords: run.chunkRecords,
    chunks,
    workMs: lastEnd - run.renderStartedAt,
    redisCommands: run.redisCommands,
  };
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
  const figures: DistributedFigures['runs'][number][] = [];
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
        const { records, chunks } = await reportedChunks(node, queue, id);
        run.chunkRecords = records;
        run.chunks = chunks;
      }
      const figure = runFigures(node, id, run, workers.length);
      refuseImpossible('distributed', checkDistributed({ frames: FRAMES, runs: [figure] }));
      runs.push(run);
      figures.push(figure);
      console.log(`run ${i + 1} ${mode.padEnd(11)} ${(run.ms / 1000).toFixed(2)} s${run.chunkRecords === undefined ? '' : `  ${run.chunkRecords} chunks`}`);
    }
  }

  const embeddedMs = median(runs.filter((r) => r.mode === 'embedded').map((r) => r.ms));
  const distributedRuns = runs.filter((r) => r.mode === 'distributed');
  const distributedMs = median(distributedRuns.map((r) => r.ms));
  const chunkFiguresAll = figures.flatMap((f) => f.chunks ?? []);
  const scheduling = median(chunkFiguresAll.map((c) => c.schedulingMs));
  const startup = median(chunkFiguresAll.map((c) => c.startupMs));
  const chunkCounts = [...new Set(distributedRuns.map((r) => r.chunkRecords ?? 0))].sort((a, b) => a - b);
  const chunks = chunkCounts.join(' or ');
  const redisPerChunk = median(distributedRuns.map((r) => (r.redisCommands ?? Number.NaN) / (r.chunkRecords ?? Number.NaN)));
  const redisPerJob = median(distributedRuns.map((r) => r.redisCommands ?? Number.NaN));
  const ratio = distributedMs / embeddedMs;
  refuseImpossible('distributed', checkDistributed({ frames: FRAMES, runs: figures, ratio }));
  printTable(`render request to completed, median of ${RUNS}`, ['mode', 'wall s', 'ratio'], [
    [`embedded (one Blender, all ${cpus().length} cores)`, fixed(embeddedMs / 1000), '1.00'],
    [`distributed (${workers.length} workers x 1 thread, ${chunks} chunks)`, fixed(distributedMs / 1000), fixed(ratio)],
  ]);
  console.log(`\ndistributed / embedded: ${fixed(ratio)} (aim: at most 1.10) ${ratio <= 1.1 ? 'met' : 'NOT met'}`);
  console.log(`scheduling overhead per chunk (median of ${chunkFiguresAll.length} chunks): ${fixed(scheduling, 0)} ms (queue pick-up + scene/status before Blender + uploads after it)`);
  console.log(`Blender start-up and scene load per chunk (median of ${chunkFiguresAll.length} chunks): ${fixed(startup, 0)} ms`);
  console.log(
    `Redis commands per job from the render request to completed, beyond the idle background (${fixed(idlePerSecond, 1)}/s with ${workers.length} workers and 2 nodes): ${fixed(redisPerJob, 0)}, ${fixed(redisPerChunk, 1)} per chunk, ${fixed(redisPerJob / FRAMES, 1)} per frame`,
  );
  console.log(loadNote());
  await writeResults('distributed', {
    frames: FRAMES,
    samples: SAMPLES,
    percentage: PERCENTAGE,
    chunkSize: CHUNK_SIZE,
    blender: blender.version,
    runs: runs.map((run, i) => ({ ...run, figures: figures[i] })),
    medians: { embeddedMs, distributedMs, schedulingOverheadPerChunkMs: scheduling, blenderStartupPerChunkMs: startup, redisCommandsPerJob: redisPerJob, redisCommandsPerChunk: redisPerChunk },
    chunksPerJob: chunkCounts,
    redisIdleCommandsPerSecond: idlePerSecond,
    ratio,
    goals: { distributedWithin1_1: ratio <= 1.1 },
  });
}

await runBench(main);
