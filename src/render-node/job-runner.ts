import { copyFile, link, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { createWriteStream, existsSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import { randomUUID } from 'node:crypto';
import yazl from 'yazl';
import type { Logger } from 'pino';
import type { FailedReason, JobStatus, SceneAnalysis } from '../shared/api';
import type { JobRecord, JobsRepo } from './jobs-repo';
import type { Storage } from './storage';
import { chooseScene, extractZip, ZipError } from './zip-extract';
import { analyzeScene, SceneAnalysisError } from './blender/analyze';
import { startRender } from './blender/render';
import { makePreview } from './blender/preview';
import { isBlenderProcessAlive, killProcessTree } from './blender/render';
import { severOutsidePaths, type SeveredPath } from '../blend/sever-outside-paths';
import { NOT_UPLOADED, reportSeveredAsStored } from './severed-paths';

/** The Blender the node renders with, and what it can do. */
export interface BlenderRuntime {
  path: string;
  version: string;
  openImageDenoise: boolean;
  optix: boolean;
  eeveeUsable: boolean | null;
}

export interface JobRunnerOptions {
  jobs: JobsRepo;
  storage: Storage;
  log: Logger;
  /** Null when no Blender was found: validations and renders fail with a clear reason. */
  blender: BlenderRuntime | null;
  concurrency: { renders: number; validations: number };
  analysisTimeoutMs?: number;
  /** Called when a job reaches `completed`. */
  onCompleted?: (job: JobRecord) => void;
  /** Resolves an upload slug to the stored file. */
  uploadPath: (slug: string) => string;
}

type Work = { kind: 'validate' | 'render' | 'finalize'; abort: AbortController; pid: number | null; task: Promise<void> | null };

const VALIDATING: JobStatus[] = ['validating'];
const RENDER_QUEUE: JobStatus[] = ['booting', 'rendering'];

/**
 * Runs validations and renders in the background, at most N of each at once. The database is the
 * queue: jobs waiting in `validating`, `booting`, `rendering` or `finalizing` are picked up by
 * `pump()`, which is also how work interrupted by a stop or crash resumes on the next start.
 */
export class JobRunner {
  private readonly running = new Map<string, Work>();
  private stopped = false;

  constructor(private readonly o: JobRunnerOptions) {}

  /**
   * Stop Blender processes a crashed node left behind, then start queued work. Frames they finished
   * are complete files (Blender writes each frame aside and moves it into place), so a resumed
   * render keeps them.
   */
  async start(): Promise<void> {
    for (const job of this.o.jobs.inStatus(['validating', 'booting', 'rendering', 'finalizing'])) {
      if (job.pid && isBlenderProcessAlive(job.pid, { marker: this.o.storage.jobDir(job.id) })) {
        this.o.log.warn({ jobId: job.id, pid: job.pid }, 'stopping a Blender process left by a previous run');
        await killProcessTree(job.pid);
      }
      if (job.pid) this.o.jobs.patch(job.id, { pid: null }, false);
    }
    this.pump();
  }

  /**
   * Stop all work without changing job statuses, so it resumes on the next start. Resolves once every
   * task has ended (Blender killed, packaging aborted), so the database can be closed after it.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    const works = [...this.running.values()];
    await Promise.allSettled(
      works.map((w) => {
        w.abort.abort(new Error('node stopping'));
        return w.pid ? killProcessTree(w.pid) : undefined;
      }),
    );
    await Promise.allSettled(works.map((w) => w.task));
  }

  /** Whether a job currently has a process working on it. */
  isRunning(jobId: string): boolean {
    return this.running.has(jobId);
  }

  /** Start as much queued work as the concurrency limits allow. */
  pump(): void {
    if (this.stopped) return;
    const count = (kinds: Work['kind'][]) => [...this.running.values()].filter((w) => kinds.includes(w.kind)).length;
    for (const job of this.o.jobs.inStatus(VALIDATING)) {
      if (count(['validate']) >= this.o.concurrency.validations) break;
      if (!this.running.has(job.id)) this.launch(job, 'validate');
    }
    for (const job of this.o.jobs.inStatus(['finalizing'])) {
      if (!this.running.has(job.id)) this.launch(job, 'finalize');
    }
    for (const job of this.o.jobs.inStatus(RENDER_QUEUE)) {
      if (count(['render']) >= this.o.concurrency.renders) break;
      if (!this.running.has(job.id)) this.launch(job, 'render');
    }
  }

  /** Stop whatever runs for a job whose status has already been set to `canceled`. */
  async abort(jobId: string): Promise<void> {
    const work = this.running.get(jobId);
    if (!work) return;
    work.abort.abort(new Error('canceled'));
    if (work.pid) await killProcessTree(work.pid);
  }

  private launch(job: JobRecord, kind: Work['kind']): void {
    const work: Work = { kind, abort: new AbortController(), pid: null, task: null };
    this.running.set(job.id, work);
    const task = kind === 'validate' ? this.validate(job, work) : kind === 'render' ? this.render(job, work) : this.finalize(job, work.abort.signal);
    work.task = task
      .catch((err: unknown) => {
        if (work.abort.signal.aborted) return;
        this.o.log.error({ jobId: job.id, err }, `${kind} crashed`);
        this.fail(job.id, internalFailure(err));
      })
      .finally(() => {
        this.running.delete(job.id);
        if (this.stopped) return;
        if (this.o.jobs.get(job.id)?.pid) this.o.jobs.patch(job.id, { pid: null }, false);
        this.pump();
      });
  }

  private fail(jobId: string, reason: FailedReason): void {
    const job = this.o.jobs.transition(jobId, ['validating', 'booting', 'rendering', 'finalizing'], 'failed', { failedReason: reason }, reason.name);
    if (job) this.o.log.warn({ jobId, reason: reason.name }, 'job failed');
  }

  private requireBlender(jobId: string): BlenderRuntime | null {
    if (this.o.blender) return this.o.blender;
    this.fail(jobId, {
      name: 'BlenderNotFound',
      type: 'blender',
      message: 'This node has no Blender. Install Blender, or start the node with --blender <path> or BLENDER_PATH.',
    });
    return null;
  }

  /**
   * Put the scene in the job's folder (extracting a zip safely), point its libraries and fonts that
   * lead outside that folder at nothing (Blender's loader would open them before any script runs),
   * and return the .blend to open.
   */
  private async prepareScene(job: JobRecord): Promise<{ scenePath: string; relative: string; severed: SeveredPath[] }> {
    const scene = job.sceneFile!;
    const dir = this.o.storage.sceneDir(job.id);
    const source = this.o.uploadPath(job.uploadSlug);
    let rel: string;
    if (scene.fileType === 'zip') {
      const files = await extractZip(source, dir);
      rel = chooseScene(files, job.validateConfig?.scenePath);
    } else {
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      rel = safeFileName(scene.fileName, 'scene.blend');
      await link(source, join(dir, rel)).catch(() => copyFile(source, join(dir, rel)));
    }
    const scenePath = join(dir, rel);
    const severed = await severOutsidePaths(scenePath, dir, { nowhere: NOT_UPLOADED, tempDir: this.o.storage.jobDir(job.id) });
    return { scenePath, relative: rel, severed };
  }

  private async validate(job: JobRecord, work: Work): Promise<void> {
    const blender = this.requireBlender(job.id);
    if (!blender) return;
    let prepared: { scenePath: string; relative: string; severed: SeveredPath[] };
    try {
      prepared = await this.prepareScene(job);
    } catch (err) {
      if (err instanceof ZipError) return this.fail(job.id, { name: err.reasonName, type: 'zip', message: err.message });
      throw err;
    }
    let analysis: SceneAnalysis;
    try {
      analysis = await analyzeScene({
        blenderPath: blender.path,
        scenePath: prepared.scenePath,
        sceneRoot: this.o.storage.sceneDir(job.id),
        nodeBlenderVersion: blender.version,
        timeoutMs: this.o.analysisTimeoutMs ?? 120_000,
        signal: work.abort.signal,
        onSpawn: (pid) => {
          work.pid = pid;
          this.o.jobs.patch(job.id, { pid }, false);
        },
      });
    } catch (err) {
      if (work.abort.signal.aborted) return;
      if (err instanceof SceneAnalysisError) return this.fail(job.id, { name: err.name, type: err.type, message: err.message });
      throw err;
    }
    analysis = withNodeWarnings(reportSeveredAsStored(analysis, prepared.severed), blender);
    this.o.jobs.transition(job.id, VALIDATING, 'validated', {
      analysis,
      analysisId: randomUUID(),
      totalFrames: analysis.totalFrames,
      sceneFile: { ...job.sceneFile!, scenePath: prepared.relative },
    });
  }

  private async render(job: JobRecord, work: Work): Promise<void> {
    const blender = this.requireBlender(job.id);
    if (!blender) return;
    const plan = job.renderPlan;
    if (!plan || !job.sceneFile?.scenePath) throw new Error(`job ${job.id} has no render plan or scene`);
    const scenePath = join(this.o.storage.sceneDir(job.id), job.sceneFile.scenePath);
    await mkdir(plan.outputDir, { recursive: true });
    const planned = new Set(plan.frames);
    const outputRoot = resolve(plan.outputDir) + sep;
    const started = startRender({
      blenderPath: blender.path,
      scenePath,
      sceneRoot: this.o.storage.sceneDir(job.id),
      plan,
      signal: work.abort.signal,
      onEvent: (ev) => {
        if (ev.event === 'ready') {
          this.o.jobs.transition(job.id, ['booting'], 'rendering');
        } else if (ev.event === 'frame') {
          if (!planned.has(ev.frame) || !resolve(ev.path).startsWith(outputRoot)) {
            this.o.log.warn({ jobId: job.id, frame: ev.frame }, 'ignoring a frame report outside the plan or the output folder');
            return;
          }
          if (this.o.jobs.get(job.id)?.status !== 'rendering') this.o.jobs.transition(job.id, ['booting'], 'rendering');
          this.o.jobs.recordFrame(job.id, ev.frame, ev.path, ev.skipped ? 0 : ev.seconds);
        }
      },
    });
    work.pid = started.pid;
    this.o.jobs.patch(job.id, { pid: started.pid }, false);
    const result = await started.done;
    if (work.abort.signal.aborted) return;
    const current = this.o.jobs.get(job.id);
    if (!current || (current.status !== 'rendering' && current.status !== 'booting')) return;
    const written = new Set(this.o.jobs.frames(job.id).map((f) => f.frame));
    const missing = plan.frames.filter((f) => !written.has(f));
    if (result.exitCode !== 0 || missing.length > 0) {
      const tail = result.stderrTail.trim().split('\n').slice(-3).join(' | ');
      return this.fail(job.id, {
        name: 'RenderFailed',
        type: 'render',
        message: `Blender stopped (exit code ${result.exitCode}) with ${missing.length} of ${plan.frames.length} frames not written${tail ? `: ${tail}` : ''}.`,
      });
    }
    const moved = this.o.jobs.transition(job.id, ['rendering', 'booting'], 'finalizing');
    if (moved) await this.finalize(moved, work.abort.signal);
  }

  /** Package outputs (frames zip, preview) and complete the job. Safe to run again after a crash. */
  private async finalize(job: JobRecord, signal: AbortSignal): Promise<void> {
    const frames = this.o.jobs.frames(job.id);
    const pkg = this.o.storage.packageDir(job.id);
    await mkdir(pkg, { recursive: true });
    const zipPath = join(pkg, framesZipName(job));
    if (!existsSync(zipPath)) await writeZip(zipPath, frames.map((f) => ({ path: f.filePath, name: basename(f.filePath) })), signal);
    let previewPath: string | null = null;
    const first = frames[0];
    if (first && this.o.blender) {
      const out = this.o.storage.previewPath(job.id);
      try {
        if (!existsSync(out)) await makePreview({ blenderPath: this.o.blender.path, imagePath: first.filePath, outPath: out, maxSize: 512, signal });
        previewPath = out;
      } catch (err) {
        if (signal.aborted) return;
        this.o.log.warn({ jobId: job.id, err }, 'preview could not be made');
      }
    }
    if (signal.aborted) return;
    const normalizedSeconds = Math.round(frames.reduce((s, f) => s + f.seconds, 0) * CPU_FACTOR * 1000) / 1000;
    const done = this.o.jobs.transition(job.id, ['finalizing'], 'completed', {
      previewPath,
      normalizedSeconds,
      completedAt: new Date().toISOString(),
    });
    if (done) {
      this.o.log.info({ jobId: job.id, frames: frames.length, normalizedSeconds }, 'job completed');
      this.o.onCompleted?.(done);
    }
  }
}

/**
 * normalizedSeconds = the sum over rendered frames of Blender's wall-clock render time of that frame,
 * multiplied by the device factor. This node renders on the CPU, whose factor is 1.
 */
export const CPU_FACTOR = 1;

/**
 * The failure of a job whose work threw unexpectedly: the error's code (for example `ENOSPC`) tells
 * what happened; its message, which may name the node's own folders, stays in the log.
 */
export function internalFailure(err: unknown): FailedReason {
  const code = err instanceof Error && 'code' in err && typeof err.code === 'string' ? ` (${err.code})` : '';
  return { name: 'InternalError', type: 'internal', message: `The node hit an internal error${code}; its log has the details. Try again, or tell whoever runs the node.` };
}

function withNodeWarnings(analysis: SceneAnalysis, blender: BlenderRuntime): SceneAnalysis {
  const warnings = [...analysis.warnings];
  if (analysis.denoisingEnabled && !blender.openImageDenoise && !(analysis.denoiser === 'OPTIX' && blender.optix)) {
    warnings.push({
      code: 'denoiser-unavailable',
      message: `The scene uses denoising (${analysis.denoiser ?? 'default'}), but this node's Blender has no denoiser; it will be switched off.`,
    });
  }
  if (/EEVEE|WORKBENCH/.test(analysis.engine) && blender.eeveeUsable === false) {
    warnings.push({ code: 'engine-unavailable', message: `${analysis.engine} cannot run on this node (no GPU display); Cycles will be used.` });
  }
  return { ...analysis, warnings };
}

function safeFileName(name: string, fallback: string): string {
  const base = basename(name.replace(/\\/g, '/')).replace(/[^A-Za-z0-9._ -]/g, '_');
  return base && base !== '.' && base !== '..' ? base : fallback;
}

/** File name of a job's frames zip: `<scene>-frames.zip`. */
export function framesZipName(job: JobRecord): string {
  const scene = (job.sceneFile?.fileName ?? 'scene').replace(/\.(blend|zip)$/i, '');
  return `${safeFileName(scene, 'scene')}-frames.zip`;
}

async function writeZip(target: string, files: { path: string; name: string }[], signal: AbortSignal): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const f of files) zip.addFile(f.path, f.name, { compress: false });
  zip.end();
  const part = `${target}.part`;
  const out = createWriteStream(part);
  try {
    await pipeline(zip.outputStream, out, { signal });
  } catch (err) {
    await rm(part, { force: true });
    throw err;
  }
  await rename(part, target);
}

/** Every non-empty file under a folder, as paths relative to it; hidden files and folders are left out. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = join(d, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile() && (await stat(full)).size > 0) out.push(relative(dir, full).split('\\').join('/'));
    }
  };
  await walk(dir);
  return out.sort();
}
