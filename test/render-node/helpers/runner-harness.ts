import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { Db } from '../../../src/render-node/store/db';
import { openDatabase } from '../../../src/render-node/store/db';
import { JobsRepo, type JobRecord } from '../../../src/render-node/store/jobs-repo';
import { Storage } from '../../../src/render-node/disk/storage';
import { DiskReserve } from '../../../src/render-node/disk/disk-reserve';
import { JobRunner } from '../../../src/render-node/jobs/job-runner';
import { DEFAULT_RENDER_LIMITS, type RenderLimits } from '../../../src/render-node/plan/render-limits';
import { planRender } from '../../../src/render-node/plan/render-plan';
import { sampleAnalysis } from '../../fixtures/analysis';
import { FakeExecutor, type FakeScript } from './fake-executor';

const CAPABILITIES = { cyclesDevices: ['CPU'], openImageDenoise: true, optix: false, viewTransforms: ['Standard', 'Filmic'], eeveeUsable: true, totalMemoryBytes: 8 * 1024 ** 3 };

/** A JobRunner on a real database in a temporary folder, rendering with a {@link FakeExecutor}. */
export interface RunnerHarness {
  db: Db;
  jobs: JobsRepo;
  storage: Storage;
  runner: JobRunner;
  executor: FakeExecutor;
  /** The runner's clock (ms); tests move it forward. */
  clock: { now: number };
  /** Ids of the jobs the runner announced as completed, in order. */
  completed: string[];
  /**
   * A job of `userId` whose render was requested (status `booting`, with a plan of `frames`), its
   * renders following `scripts` (default: every frame, at once).
   */
  queueRender(userId: string, frames?: string, ...scripts: FakeScript[]): JobRecord;
  /** Stop the runner as a node stop does, and start a new one on the same data with `executor`. */
  restart(executor?: FakeExecutor): Promise<void>;
  /** Stop the runner and remove the folder. */
  close(): Promise<void>;
}

/** Options of {@link startRunner}; everything has a small default. */
export interface HarnessOptions {
  renders?: number;
  executor?: FakeExecutor;
  limits?: Partial<RenderLimits>;
  headroomBytes?: number;
  renderTurnMs?: number;
}

/** Requested, validated and planned, as the HTTP routes do it: the job waits for a render slot. */
function requestRender(jobs: JobsRepo, storage: Storage, userId: string, frames: string): JobRecord {
  const slug = `u-${userId}-${Math.random().toString(36).slice(2)}`;
  const job = jobs.create({ userId, uploadSlug: slug, sceneFile: { fileName: 'shot.blend', fileType: 'blend', size: 1, slug, scenePath: 'shot.blend' } });
  const config = { colorManagementPreset: 'default' as const, frameRanges: [frames] };
  const planned = planRender(config, sampleAnalysis({ frameEnd: 1000 }), CAPABILITIES, {
    outputDir: storage.framesDir(job.id),
    compositeOutputDir: storage.compositeDir(job.id),
    previewPath: storage.previewPath(job.id),
    previewDir: storage.previewsDir(job.id),
  });
  if (!planned.ok) throw new Error(planned.message);
  const queuedAt = new Date().toISOString();
  jobs.transition(job.id, ['created'], 'validating', { queuedAt });
  jobs.transition(job.id, ['validating'], 'validated', { analysis: sampleAnalysis(), analysisId: 'analysis', totalFrames: planned.plan.frames.length });
  const moved = jobs.transition(job.id, ['validated'], 'booting', {
    requestedConfig: config,
    finalConfig: planned.finalConfig,
    renderPlan: planned.plan,
    totalFrames: planned.plan.frames.length,
    completedFrames: 0,
    queuedAt,
  });
  if (!moved) throw new Error(`job ${job.id} could not be queued`);
  return moved;
}

/** Start a runner (no Blender, no process) on a fresh data folder. */
export async function startRunner(options: HarnessOptions = {}): Promise<RunnerHarness> {
  const dir = await mkdtemp(join(tmpdir(), 'rd-runner-'));
  const db = openDatabase(dir);
  const jobs = new JobsRepo(db);
  const storage = new Storage(dir);
  const clock = { now: Date.now() };
  const completed: string[] = [];
  const makeRunner = (executor: FakeExecutor) =>
    new JobRunner({
      jobs,
      storage,
      log: pino({ level: 'silent' }),
      blender: null,
      concurrency: { renders: options.renders ?? 1, validations: 1 },
      reserve: new DiskReserve(join(dir, 'reserve'), 64 * 1024),
      limits: { ...DEFAULT_RENDER_LIMITS, ...options.limits },
      headroomBytes: options.headroomBytes ?? 0,
      renderTurnMs: options.renderTurnMs,
      onCompleted: (job) => completed.push(job.id),
      uploadPath: (slug) => storage.uploadPath(slug),
      now: () => clock.now,
      executor,
    });
  const executor = options.executor ?? new FakeExecutor();
  const harness: RunnerHarness = {
    db,
    jobs,
    storage,
    runner: makeRunner(executor),
    executor,
    clock,
    completed,
    queueRender(userId, frames = '1-2', ...scripts) {
      const job = requestRender(jobs, storage, userId, frames);
      if (scripts.length > 0) harness.executor.script(job.id, ...scripts);
      harness.runner.pump();
      return job;
    },
    async restart(next = new FakeExecutor()) {
      await harness.runner.stop();
      harness.executor = next;
      harness.runner = makeRunner(next);
      await harness.runner.start();
    },
    async close() {
      await harness.runner.stop();
      db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  await harness.runner.start();
  return harness;
}

/** Wait until `check` holds (polling every few ms), or fail naming `what`. */
export async function until(check: () => boolean, what: string, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
