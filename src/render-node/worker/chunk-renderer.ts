import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { type BlenderRenderPlan, startRender } from '../blender';
import { type ChunkData, describeFrames } from '../distributed';
import { acquireFileLock } from '../../node-common/file-lock';
import { framePreviewName, verifyFrame } from '../frames';
import { isOwnDiskFull, WorkerDiskFullError } from './disk-room';
import { BLENDER_PID_FILE, SCRATCH_LOCK } from './leftovers';
import { JobStoppedError, NodeRefusedError, type NodeClient } from './node-client';
import type { SceneCache } from './scene-cache';
import type { ChunkFetch } from './chunk-cache';
import { chunkLogSender } from './chunk-log';

/** What a worker brings to every chunk. */
export interface ChunkContext {
  name: string;
  blenderPath: string;
  /** Blender threads, or null for all cores. */
  threads: number | null;
  /** Folder for the chunks' scratch folders. */
  workDir: string;
  scenes: SceneCache;
  client: NodeClient;
  /** Blender started on a frame (null: between frames). */
  onFrameStarted: (frame: number | null) => void;
  /** A frame was delivered to the node. */
  onFrameDelivered: () => void;
  /** Blender has loaded the scene and begins rendering. */
  onRendering: () => void;
}

/** When each step of a chunk happened (ms since the epoch), for the scheduling figures. */
export interface ChunkTimings {
  startedAt: number;
  blenderStartedAt: number | null;
  blenderEndedAt: number | null;
  endedAt: number;
}

/** How a chunk ended: its frames delivered, or stopped (job stopped, or the signal's reason). */
export type ChunkResult =
  | { outcome: 'delivered'; rendered: number; skipped: number; timings: ChunkTimings; sceneFetch?: ChunkFetch }
  | { outcome: 'stopped'; rendered: number; timings: ChunkTimings };

/** A chunk could not be rendered here; the message names the frames and this worker. */
export class ChunkRenderError extends Error {
  override readonly name = 'ChunkRenderError';
}

/**
 * Render one chunk: ask the node which of its frames it still needs, get the scene (cached by
 * content), render those frames with this worker's Blender under the node's plan, and upload each
 * frame (and compositor output) as soon as it is written. Stops when `signal` is aborted.
 */
export async function renderChunk(chunk: ChunkData, ctx: ChunkContext, signal: AbortSignal): Promise<ChunkResult> {
  const startedAt = Date.now();
  const timings = (): ChunkTimings => ({ startedAt, blenderStartedAt, blenderEndedAt, endedAt: Date.now() });
  let blenderStartedAt: number | null = null;
  let blenderEndedAt: number | null = null;
  const status = await ctx.client.status(chunk, signal).catch((err: unknown) => {
    if (err instanceof JobStoppedError) return null;
    throw err;
  });
  if (!status?.active) return { outcome: 'stopped', rendered: 0, timings: timings() };
  const have = new Set(status.have);
  const todo = chunk.frames.filter((f) => !have.has(f));
  if (todo.length === 0) return { outcome: 'delivered', rendered: 0, skipped: chunk.frames.length, timings: timings() };

  const parts = { chunks: () => ctx.client.sceneChunks(chunk, signal), range: (offset: number, length: number) => ctx.client.sceneRange(chunk, offset, length, signal) };
  const scene = await ctx.scenes.scene(chunk.scene, (target, check) => ctx.client.downloadScene(chunk, target, check, signal), parts);
  await mkdir(ctx.workDir, { recursive: true });
  const dir = await mkdtemp(join(ctx.workDir, `${chunk.jobId}-${chunk.index}-`));
  const lock = await acquireFileLock(join(dir, SCRATCH_LOCK));
  const framesDir = join(dir, 'frames');
  const compositeDir = join(dir, 'composite');
  const previewDir = join(dir, 'previews');
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const uploads = new Uploads(chunk, ctx, { compositeDir, previewDir }, stop);
  const log = chunkLogSender(chunk, ctx, stop.signal);
  try {
    const plan: BlenderRenderPlan = {
      ...chunk.plan,
      frames: todo,
      outputDir: framesDir,
      compositeOutputDir: compositeDir,
      previewDir,
      threads: ctx.threads,
    };
    const wanted = new Set(todo);
    const root = resolve(framesDir) + sep;
    const started = startRender({
      blenderPath: ctx.blenderPath,
      scenePath: scene.path,
      sceneRoot: scene.root,
      plan,
      signal: stop.signal,
      graceMs: 1000,
      onLine: (line) => log.line(line),
      onEvent: (ev) => {
        if (ev.event === 'ready') {
          ctx.onRendering();
          ctx.onFrameStarted(todo[0] ?? null);
        } else if (ev.event === 'frame' && wanted.has(ev.frame) && resolve(ev.path).startsWith(root)) {
          wanted.delete(ev.frame);
          ctx.onFrameStarted(todo.find((f) => wanted.has(f)) ?? null);
          uploads.frame(ev.frame, ev.path, ev.seconds);
        }
      },
    });
    blenderStartedAt = Date.now();
    await writeFile(join(dir, BLENDER_PID_FILE), String(started.pid));
    const result = await started.done;
    blenderEndedAt = Date.now();
    await Promise.all([uploads.finish(), log.finish()]);
    if (uploads.stopped || signal.aborted) return { outcome: 'stopped', rendered: uploads.delivered, timings: timings() };
    const missing = todo.filter((f) => !uploads.deliveredFrames.has(f));
    if (uploads.error || result.exitCode !== 0 || missing.length > 0) throw await renderFailure(ctx, dir, uploads, result, missing.length ? missing : todo);
    return { outcome: 'delivered', rendered: uploads.delivered, skipped: have.size, timings: timings(), ...(scene.fetched ? { sceneFetch: scene.fetched } : {}) };
  } finally {
    signal.removeEventListener('abort', onAbort);
    ctx.onFrameStarted(null);
    lock.release();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Why a chunk's render failed: the worker's own disk filled up (its chunk goes to another worker), or
 * Blender or the node failed it (counted against this worker).
 */
async function renderFailure(ctx: ChunkContext, dir: string, uploads: Uploads, result: { exitCode: number | null; stderrTail: string }, frames: number[]): Promise<Error> {
  if (uploads.diskFull) return uploads.diskFull;
  if (uploads.error === null && (await isOwnDiskFull(null, dir, result.stderrTail))) {
    return new WorkerDiskFullError(`Blender could not write frames ${describeFrames(frames)}`);
  }
  const tail = result.stderrTail.trim().split('\n').slice(-3).join(' | ');
  const detail = uploads.error ?? `Blender stopped (exit code ${result.exitCode})${tail ? `: ${tail}` : ''}`;
  return new ChunkRenderError(`Worker "${ctx.name}" could not render frames ${describeFrames(frames)}: ${detail}`);
}

/**
 * A frame file Blender reported saved but that is not whole: cut short by this worker's full disk, or
 * written incompletely by Blender. Either way it is not uploaded.
 */
async function cutFrame(frame: number, path: string, reason: string): Promise<Error> {
  if (await isOwnDiskFull(null, dirname(path))) return new WorkerDiskFullError(`frame ${frame} was cut short while being written`);
  return new ChunkRenderError(`Blender wrote frame ${frame} incompletely (${reason})`);
}

/** Uploads of one chunk, one at a time in the order frames were written, beside the render. */
class Uploads {
  private chain: Promise<void> = Promise.resolve();
  private readonly composites = new Set<string>();
  readonly deliveredFrames = new Set<number>();
  delivered = 0;
  stopped = false;
  error: string | null = null;
  /** Set when this worker's disk filled up under a frame. */
  diskFull: WorkerDiskFullError | null = null;

  constructor(
    private readonly chunk: ChunkData,
    private readonly ctx: ChunkContext,
    private readonly dirs: { compositeDir: string; previewDir: string },
    private readonly stop: AbortController,
  ) {}

  /**
   * Upload a frame Blender has just finished, its preview first (so the app shows the frame as soon as
   * it counts), and the compositor files present now: File Output nodes write straight to their files
   * while a frame composites, so only files listed between frames are complete.
   */
  frame(frame: number, path: string, seconds: number): void {
    const composites = this.listComposites();
    this.enqueue(async () => {
      const name = path.split(/[\\/]/).pop()!;
      const verdict = await verifyFrame(path);
      if (!verdict.ok) throw await cutFrame(frame, path, verdict.reason);
      await this.sendPreview(frame, name);
      const counted = await this.ctx.client.putFrame(this.chunk, frame, name, path, seconds, this.stop.signal);
      this.deliveredFrames.add(frame);
      if (counted) {
        this.delivered++;
        this.ctx.onFrameDelivered();
      }
      await rm(path, { force: true });
      await this.sendComposites(composites);
    });
  }

  /** Wait for every upload, then send compositor files written after the last frame (Blender has exited). */
  async finish(): Promise<void> {
    const composites = this.listComposites();
    this.enqueue(() => this.sendComposites(composites));
    await this.chain;
  }

  private enqueue(step: () => Promise<void>): void {
    this.chain = this.chain.then(async () => {
      if (this.stopped || this.error) return;
      try {
        await step();
      } catch (err) {
        if (err instanceof JobStoppedError || (err instanceof NodeRefusedError && err.status === 507)) this.stopped = true;
        else if (err instanceof WorkerDiskFullError) [this.diskFull, this.error] = [err, err.message];
        else if (err instanceof ChunkRenderError) this.error = err.message;
        else if (!this.stop.signal.aborted) this.error = `the node did not take its output: ${err instanceof Error ? err.message : String(err)}`;
        this.stop.abort(err);
      }
    });
  }

  /** Send the preview Blender made of a frame; one that is missing or refused is left out, never failing the chunk. */
  private async sendPreview(frame: number, name: string): Promise<void> {
    const preview = join(this.dirs.previewDir, framePreviewName(name));
    try {
      await this.ctx.client.putPreview(this.chunk, frame, name, preview, this.stop.signal);
    } catch (err) {
      if (this.stop.signal.aborted) throw err;
    } finally {
      await rm(preview, { force: true });
    }
  }

  private listComposites(): { node: string; name: string }[] {
    const list = (dir: string) => {
      try {
        return readdirSync(dir);
      } catch {
        return [];
      }
    };
    const root = this.dirs.compositeDir;
    return list(root).flatMap((node) => list(join(root, node)).map((name) => ({ node, name })));
  }

  private async sendComposites(files: { node: string; name: string }[]): Promise<void> {
    for (const { node, name } of files) {
      const key = `${node}/${name}`;
      if (this.composites.has(key)) continue;
      await this.ctx.client.putComposite(this.chunk, node, name, join(this.dirs.compositeDir, node, name), this.stop.signal);
      this.composites.add(key);
    }
  }
}
