import { join } from 'node:path';
import { z } from 'zod';
import type { Logger } from 'pino';
import type { JobEstimate } from '../../shared/api';
import { sceneFrames } from '../../shared/render';
import type { EstimatesRepo, JobRecord, JobsRepo } from '../store';
import type { Storage } from '../disk';
import type { BlenderRenderPlan } from '../blender';
import { planRender, type NodeCapabilities, type Renderer } from '../plan';
import { estimateFromSample, modelOf, sampleMeasureSchema, type RenderTarget, type SampleMeasure } from './sample-model';
import { runSampleRender } from './sample-render';
import { timeLeftFromFrames } from './time-left';

/** What the node's estimates need from it. */
export interface JobEstimatesDeps {
  jobs: JobsRepo;
  estimates: EstimatesRepo;
  storage: Storage;
  log: Logger;
  /** The node's own Blender; without one there is no sample render. */
  blender: { path: string; runsScenePython?: boolean } | null;
  /** The environment Blender runs in (its scratch folder set). */
  env: NodeJS.ProcessEnv;
  threads?: number | null;
  /** What the node's Blender can do: the sample renders as the job would at the scene's settings (without it, the scene's own settings). */
  capabilities?: NodeCapabilities;
  /** The render workers that share a job's frames (when the node renders on workers): the sampled time is divided among them. */
  workers?: () => Promise<Renderer[] | null>;
  now?: () => number;
}

/** A sample render's measure with the renders that would share the job's frames when it was taken. */
const savedSampleSchema = sampleMeasureSchema.extend({ parallel: z.number().int().positive().default(1) });

/** The sample renders' scratch folder in the node's, which also marks their Blender's command line. */
export const SAMPLE_DIR = 'estimate-sample';

type Running = { jobId: string; abort: AbortController; task: Promise<void> };

/** The render a job asks for: its plan once it has one, else the scene's own settings. */
function targetOf(job: JobRecord): RenderTarget | null {
  const plan = job.renderPlan;
  if (plan) {
    const pct = plan.resolutionPercentage;
    return { engine: plan.engine, frames: plan.frames, width: Math.floor((plan.resolution[0] * pct) / 100), height: Math.floor((plan.resolution[1] * pct) / 100), samples: plan.samples };
  }
  const a = job.analysis;
  if (!a) return null;
  const pct = a.resolutionPercentage;
  return { engine: a.engine, frames: sceneFrames(a.frameStart, a.frameEnd, a.frameStep), width: Math.floor((a.resolution[0] * pct) / 100), height: Math.floor((a.resolution[1] * pct) / 100), samples: a.samples };
}

/**
 * The node's render estimates: a sample render of each validated job while the artist reads the review
 * (one at a time, at the lowest priority, stopped once the job starts rendering or ends), the estimate a
 * job carries (from the sample before Start, from its frames while it renders), and what each finished
 * job was estimated and took.
 */
export class JobEstimates {
  private readonly queue: string[] = [];
  private running: Running | null = null;
  private stopped = false;

  constructor(private readonly d: JobEstimatesDeps) {}

  /** A job was validated: its sample render is queued. */
  validated(jobId: string): void {
    if (!this.d.blender || this.stopped || this.queue.includes(jobId) || this.running?.jobId === jobId) return;
    this.queue.push(jobId);
    this.next();
  }

  /** Stops the sample renders of jobs that are no longer waiting for their review (started, canceled, deleted). */
  sweep(): void {
    const waits = (id: string) => this.d.jobs.get(id)?.status === 'validated';
    for (let i = this.queue.length - 1; i >= 0; i--) if (!waits(this.queue[i]!)) this.queue.splice(i, 1);
    if (this.running && !waits(this.running.jobId)) this.running.abort.abort();
  }

  /** Stops a job's sample render, resolving once its Blender has ended. */
  async cancel(jobId: string): Promise<void> {
    const at = this.queue.indexOf(jobId);
    if (at >= 0) this.queue.splice(at, 1);
    const running = this.running;
    if (running?.jobId !== jobId) return;
    running.abort.abort();
    await running.task;
  }

  /** Stops every sample render (the node stops). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.length = 0;
    const running = this.running;
    running?.abort.abort();
    await running?.task;
  }

  /** Whether a sample render of the job runs now. */
  isSampling(jobId: string): boolean {
    return this.running?.jobId === jobId;
  }

  /** A job's render starts: the estimate it carries now is the one it was given. */
  started(jobId: string): void {
    const job = this.d.jobs.get(jobId);
    const given = job && this.d.estimates.get(jobId)?.given == null ? this.fromSample(job) : null;
    if (given) this.d.estimates.saveGiven(jobId, given);
  }

  /** A job completed: the render time it took (from its latest start of rendering to its frames done) is kept. */
  finished(jobId: string): void {
    const events = this.d.jobs.events(jobId);
    const since = events.filter((e) => e.status === 'rendering').at(-1)?.at;
    const until = events.filter((e) => e.status === 'finalizing').at(-1)?.at;
    if (!since || !until) return;
    const took = (Date.parse(until) - Date.parse(since)) / 1000;
    if (Number.isFinite(took) && took >= 0) this.d.estimates.saveTook(jobId, took, until);
  }

  /**
   * The estimate a job carries: from its frames while it renders, from its sample render before, and
   * once it completed the one it was given at Start (to set against the time it took); null otherwise.
   */
  of(job: JobRecord): JobEstimate | null {
    if (job.status === 'completed') {
      const given = this.d.estimates.get(job.id)?.given;
      return given ? { ...given, basis: 'sample' } : null;
    }
    if (job.status === 'rendering' || (job.status === 'booting' && job.completedFrames > 0)) return this.fromFrames(job);
    if (job.status === 'validated' || job.status === 'booting') {
      const sample = this.sampleOf(job.id);
      const target = targetOf(job);
      const range = sample && target ? estimateFromSample(sample, target, sample.parallel) : null;
      // Before Start the model goes with it, for a client to price the settings chosen in the review.
      return range && sample ? { ...range, basis: 'sample', ...(job.status === 'validated' ? { model: modelOf(sample, sample.parallel) } : {}) } : null;
    }
    return null;
  }

  private fromSample(job: JobRecord): { seconds: number; low: number; high: number } | null {
    const sample = this.sampleOf(job.id);
    const target = targetOf(job);
    return sample && target ? estimateFromSample(sample, target, sample.parallel) : null;
  }

  /** The sample render's measure kept for a job; null without one (or one of an older shape). */
  private sampleOf(jobId: string): z.infer<typeof savedSampleSchema> | null {
    const parsed = savedSampleSchema.safeParse(this.d.estimates.get(jobId)?.sample);
    return parsed.success ? parsed.data : null;
  }

  private fromFrames(job: JobRecord): JobEstimate | null {
    if (!job.renderPlan) return null;
    const since = this.d.jobs.events(job.id).filter((e) => e.status === 'rendering').at(-1)?.at;
    const lastAt = this.d.estimates.latestFrameAt(job.id);
    const now = this.d.now?.() ?? Date.now();
    const rendered = since && lastAt ? (Date.parse(lastAt) - Date.parse(since)) / 1000 : null;
    const left = timeLeftFromFrames(this.d.jobs.frames(job.id), job.renderPlan.frames, { renderedSeconds: rendered, sinceLastFrame: lastAt ? (now - Date.parse(lastAt)) / 1000 : 0 });
    return left ? { ...left, basis: 'frames' } : null;
  }

  private next(): void {
    if (this.running || this.stopped) return;
    const jobId = this.queue.shift();
    if (jobId === undefined) return;
    const abort = new AbortController();
    const task = this.sample(jobId, abort.signal)
      .catch((err: unknown) => this.d.log.warn({ jobId, err }, 'the sample render for the estimate failed; the job has no estimate'))
      .finally(() => {
        this.running = null;
        this.next();
      });
    this.running = { jobId, abort, task };
  }

  /**
   * The Blender plan of the job's render at the scene's settings, as Start without changes would plan it
   * (its files' folders are the sample's own); null when the node cannot plan it.
   */
  private planAtSceneSettings(job: JobRecord): BlenderRenderPlan | null {
    if (!this.d.capabilities || !job.analysis) return null;
    const planned = planRender({ colorManagementPreset: 'default' }, job.analysis, this.d.capabilities, { outputDir: this.d.storage.tempDir, compositeOutputDir: this.d.storage.tempDir, previewDir: this.d.storage.tempDir });
    if (!planned.ok) return null;
    const { frameOrder: _order, video: _video, blender: _version, ...plan } = planned.plan;
    return plan;
  }

  private async sample(jobId: string, signal: AbortSignal): Promise<void> {
    const job = this.d.jobs.get(jobId);
    const blender = this.d.blender;
    if (!blender || job?.status !== 'validated' || !job.analysis || !job.sceneFile?.scenePath) return;
    const a = job.analysis;
    const sceneRoot = this.d.storage.sceneDir(job.id);
    const plan = this.planAtSceneSettings(job);
    const measure: SampleMeasure | null = await runSampleRender(
      {
        blenderPath: blender.path,
        scenePath: join(sceneRoot, job.sceneFile.scenePath),
        sceneRoot,
        engine: plan?.engine ?? a.engine,
        frames: sceneFrames(a.frameStart, a.frameEnd, a.frameStep),
        resolution: a.resolution,
        resolutionPercentage: a.resolutionPercentage,
        samples: a.samples,
        env: this.d.env,
        tempDir: join(this.d.storage.tempDir, SAMPLE_DIR),
        threads: this.d.threads ?? null,
        scenePython: blender.runsScenePython === true,
        plan,
      },
      signal,
    );
    const parallel = measure && this.d.workers ? Math.max(1, (await this.d.workers())?.length ?? 1) : 1;
    if (measure && !signal.aborted && this.d.jobs.get(jobId)) {
      this.d.estimates.saveSample(jobId, { ...measure, parallel });
      this.d.log.info({ jobId, measure }, 'sample render measured');
    }
  }
}
