/**
 * Frames spread across the shot against frames in order, in the same run: one shot whose frames cost
 * more toward its end (an array of spheres growing from 1 copy to `--copies`, made by Blender with
 * bench/lib/make-ramp-scene.py) rendered by the embedded node (one Blender, all cores) and by two
 * render workers on a real Redis (one Blender thread each), each in both orders, alternating. Prints,
 * from the node's record of when each frame was counted: the frames on disk after an eighth of the
 * job's render time (render request to last frame), the widest stretch of the shot with none of them
 * (aim: at most a sixth with the spread) and how far into the shot they reach (in order: only its
 * start, the cheap part, is there), and the total
 * render time of the spread order against the in-order one (aim: at most 1.03). Needs Blender and redis-server.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { FrameOrder } from '../src/shared/api';
import { requireBlender } from '../test/helpers/blender';
import { startTestNode, uploadBytes, waitForJob, type TestNode } from '../test/helpers/node';
import { requireRedis, startRedis } from '../test/helpers/redis';
import { blenderProcesses, startWorkerProcess, stopWorker, type WorkerProcess } from '../test/helpers/workers';
import { probeBlender } from '../src/render-node/blender/probe';
import { checkFrameOrder, refuseImpossible, type FrameOrderFigures } from './lib/checks';
import { onCleanup, runBench, throwIfInterrupted } from './lib/cleanup';
import { intOption } from './lib/options';
import { fixed, loadNote, median, printTable, writeResults } from './lib/report';

const RUNS = intOption('runs', 1);
const FRAMES = intOption('frames', 128, 3);
const COPIES = intOption('copies', 200);
const SAMPLES = intOption('samples', 8);
const WIDTH = intOption('width', 160);
const HEIGHT = intOption('height', 90);

type Mode = 'embedded' | 'workers';
type Run = FrameOrderFigures['runs'][number] & { mode: Mode; order: FrameOrder; writtenOrder: number[]; blenderCpuSeconds: number };

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU seconds (user + system) of the child processes `pid` has waited for (its Blenders once they exit), from /proc. */
async function reapedChildrenCpu(pid: number | 'self'): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
}

/**
 * Where Blender's CPU time of a render is counted: the bench process itself for the embedded node (it
 * runs in-process and waits for its Blender), each worker process for the workers' Blenders.
 */
interface CpuMeter {
  read(): Promise<number>;
  /** Resolves once no Blender of this meter still runs (a worker's last Blender may exit after the job completes). */
  settle(): Promise<void>;
}

function embeddedMeter(): CpuMeter {
  return { read: () => reapedChildrenCpu('self'), settle: async () => {} };
}

function workersMeter(workers: readonly WorkerProcess[], cacheDirs: readonly string[]): CpuMeter {
  return {
    read: async () => (await Promise.all(workers.map((w) => reapedChildrenCpu(w.child.pid!)))).reduce((a, b) => a + b, 0),
    settle: async () => {
      for (let i = 0; i < 300 && (await Promise.all(cacheDirs.map(blenderProcesses))).flat().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    },
  };
}

/** Make the shot with Blender (HOME in the scratch folder, so nothing of the real home is touched). */
function makeScene(blender: string, work: string): Promise<Buffer> {
  const out = join(work, 'ramp.blend');
  const script = join(import.meta.dirname, 'lib', 'make-ramp-scene.py');
  const made = spawnSync(blender, ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python', script, '--', out, String(FRAMES), String(COPIES), String(SAMPLES), String(WIDTH), String(HEIGHT)], {
    encoding: 'utf8',
    env: { ...process.env, HOME: join(work, 'home') },
  });
  if (made.status !== 0) throw new Error(`Blender could not make the scene: ${made.stderr || made.stdout}`);
  return readFile(out);
}

async function validated(node: TestNode, bytes: Buffer): Promise<string> {
  const slug = await uploadBytes(node, 'ramp.blend', bytes);
  const job = (await node.call('POST', '/jobs', { slug })).json;
  await node.call('POST', `/jobs/${job.id}/validate`);
  const done = await waitForJob(node, job.id, (j) => j.status !== 'validating');
  if (done.status !== 'validated') throw new Error(`validation ended ${done.status}: ${JSON.stringify(done.failedReason)}`);
  return job.id as string;
}

/** The widest stretch of the shot `first`..`last` with none of `done` in it, as a share of the shot. */
function widestGap(done: readonly number[], first: number, last: number): number {
  const points = [...done].sort((a, b) => a - b);
  if (points.length === 0) return 1;
  let widest = Math.max(points[0]! - first, last - points[points.length - 1]!);
  for (let i = 1; i < points.length; i++) widest = Math.max(widest, points[i]! - points[i - 1]!);
  return widest / (last - first);
}

async function render(node: TestNode, id: string, mode: Mode, order: FrameOrder, cpu: CpuMeter): Promise<Run> {
  await cpu.settle();
  const cpuBefore = await cpu.read();
  const requestedAt = Date.now();
  await node.call('POST', `/jobs/${id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', frameOrder: order } });
  const done = await waitForJob(node, id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 3_600_000);
  const ms = Date.now() - requestedAt;
  if (done.status !== 'completed') throw new Error(`${mode} ${order} render ended ${done.status}: ${JSON.stringify(done.failedReason)}`);
  await cpu.settle();
  const blenderCpuSeconds = (await cpu.read()) - cpuBefore;
  const rows = node.node.ctx.db.prepare('SELECT frame, written_at AS writtenAt FROM frames WHERE job_id = ? ORDER BY written_at, rowid').all(id) as { frame: number; writtenAt: string }[];
  const written = rows.map((r) => ({ frame: r.frame, at: Date.parse(r.writtenAt) - requestedAt }));
  const renderMs = Math.max(...written.map((w) => w.at));
  const atEighth = written.filter((w) => w.at <= renderMs / 8).map((w) => w.frame);
  return {
    mode,
    order,
    ms,
    renderMs,
    framesRecorded: rows.length,
    writtenAtMs: written.map((w) => w.at),
    writtenOrder: written.map((w) => w.frame),
    blenderCpuSeconds,
    doneAtEighth: atEighth.length,
    widestGapAtEighth: widestGap(atEighth, 1, FRAMES),
  };
}

async function main(): Promise<void> {
  const blenderPath = requireBlender();
  if (!blenderPath) throw new Error('Blender is needed for this benchmark (install it, or set BLENDER_PATH).');
  const redisServer = requireRedis();
  if (!redisServer) throw new Error('redis-server is needed for this benchmark (apt install redis-server).');
  const work = await mkdtemp(join(tmpdir(), 'rd-bench-order-'));
  onCleanup(() => rm(work, { recursive: true, force: true }));
  await mkdir(join(work, 'home'), { recursive: true });
  const redis = await startRedis(redisServer);
  onCleanup(() => redis.dispose());
  const blender = await probeBlender(blenderPath, { timeoutMs: 60_000 });
  const bytes = await makeScene(blenderPath, work);
  const logger = pino({ level: 'warn' }, pino.destination(2));
  const embedded = await startTestNode({ blender, logger });
  onCleanup(() => embedded.stop());
  const distributed = await startTestNode({ blender, logger, distributed: { redis: { url: redis.url }, chunkSize: null } });
  onCleanup(() => distributed.stop());
  const workers = await Promise.all(
    ['w1', 'w2'].map((name) => startWorkerProcess({ redis: redis.url, node: distributed.url, name, cacheDir: join(work, `cache-${name}`), blender: blenderPath, threads: 1 })),
  );
  onCleanup(() => Promise.all(workers.map((w) => stopWorker(w))));
  const meters: Record<Mode, CpuMeter> = { embedded: embeddedMeter(), workers: workersMeter(workers, ['w1', 'w2'].map((name) => join(work, `cache-${name}`))) };

  console.log(`${FRAMES} frames (1 to ${COPIES} copies of the spheres along the shot) at ${WIDTH}x${HEIGHT}, ${SAMPLES} samples, Blender ${blender.version}, ${cpus().length} CPUs`);
  console.log(loadNote());
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    for (const mode of ['embedded', 'workers'] as const) {
      const orders: FrameOrder[] = i % 2 === 0 ? ['sequential', 'spread'] : ['spread', 'sequential'];
      for (const order of orders) {
        throwIfInterrupted();
        const node = mode === 'embedded' ? embedded : distributed;
        const run = await render(node, await validated(node, bytes), mode, order, meters[mode]);
        refuseImpossible('frame-order', checkFrameOrder({ frames: FRAMES, cpus: cpus().length, runs: [run] }));
        runs.push(run);
        console.log(`run ${i + 1} ${mode.padEnd(8)} ${order.padEnd(10)} ${fixed(run.ms / 1000)} s, last frame at ${fixed(run.renderMs / 1000)} s, Blender CPU ${fixed(run.blenderCpuSeconds)} s; at an eighth: ${run.doneAtEighth} frames, widest gap ${fixed(run.widestGapAtEighth * 100, 1)} % of the shot`);
      }
    }
  }

  const of = (mode: Mode, order: FrameOrder) => runs.filter((r) => r.mode === mode && r.order === order);
  const ratios: Record<string, number> = {};
  const rows: string[][] = [];
  for (const mode of ['embedded', 'workers'] as const) {
    const spread = of(mode, 'spread');
    const inOrder = of(mode, 'sequential');
    const ratio = median(spread.map((r) => r.renderMs)) / median(inOrder.map((r) => r.renderMs));
    const cpuRatio = median(spread.map((r) => r.blenderCpuSeconds)) / median(inOrder.map((r) => r.blenderCpuSeconds));
    ratios[`${mode}: spread / in order`] = ratio;
    ratios[`${mode}: spread / in order, Blender CPU`] = cpuRatio;
    for (const [order, list] of [['in order', inOrder], ['spread', spread]] as const) {
      rows.push([
        mode === 'embedded' ? `embedded (one Blender, all ${cpus().length} cores)` : `${workers.length} workers x 1 thread`,
        order,
        fixed(median(list.map((r) => r.renderMs)) / 1000),
        order === 'spread' ? fixed(ratio) : '1.00',
        fixed(median(list.map((r) => r.blenderCpuSeconds))),
        order === 'spread' ? fixed(cpuRatio) : '1.00',
        fixed(median(list.map((r) => r.doneAtEighth)), 0),
        `${fixed(median(list.map((r) => r.widestGapAtEighth)) * 100, 1)} %`,
        `${fixed(median(list.map((r) => reach(r, FRAMES))) * 100, 1)} %`,
      ]);
    }
  }
  refuseImpossible('frame-order', checkFrameOrder({ frames: FRAMES, cpus: cpus().length, runs, ratios }));
  printTable(`render request to last frame, median of ${RUNS}; the frames on disk after an eighth of it`, ['where', 'order', 'render s', 'ratio', 'Blender CPU s', 'CPU ratio', 'frames at 1/8', 'widest gap at 1/8', 'reach at 1/8'], rows);
  const covered = runs.filter((r) => r.order === 'spread').every((r) => r.widestGapAtEighth <= 1 / 6);
  const inOrderShort = runs.filter((r) => r.order === 'sequential').every((r) => r.widestGapAtEighth > 1 / 6);
  const within = Object.values(ratios).every((r) => r <= 1.03);
  const cpuWithin = Object.entries(ratios).filter(([name]) => name.endsWith('CPU')).every(([, r]) => r <= 1.03);
  const inOrderReach = median(runs.filter((r) => r.order === 'sequential').map((r) => reach(r, FRAMES)));
  console.log(`\nafter an eighth of the render time, spread: no gap wider than a sixth of the shot ${covered ? 'met' : 'NOT met'}; in order: frames only in the first ${fixed(inOrderReach * 100, 0)} % of the shot (its cheap start), the rest unseen${inOrderShort ? '' : ' (NOT so in every run)'}`);
  console.log(`spread / in order render time (aim: at most 1.03): ${Object.entries(ratios).map(([name, r]) => `${name} ${fixed(r)}`).join(', ')} ${within ? 'met' : cpuWithin ? 'met in Blender CPU time, NOT in wall time (the machine is shared: see the load)' : 'NOT met'}`);
  console.log(loadNote());
  await writeResults('frame-order', {
    frames: FRAMES,
    copies: COPIES,
    samples: SAMPLES,
    size: [WIDTH, HEIGHT],
    blender: blender.version,
    runs,
    ratios,
    goals: { spreadCoversAtAnEighth: covered, inOrderLeavesAGapWiderThanASixth: inOrderShort, spreadWithin1_03: within, spreadWithin1_03InBlenderCpu: cpuWithin },
  });
}

/** How far into the shot the frames on disk after an eighth reach: the share of it up to the highest of them. */
function reach(run: Run, frames: number): number {
  const atEighth = run.writtenOrder.filter((_, i) => run.writtenAtMs[i]! <= run.renderMs / 8);
  return atEighth.length === 0 ? 0 : (Math.max(...atEighth) - 1) / (frames - 1);
}

await runBench(main);
