import { copyFile, mkdir, open, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Logger } from 'pino';
import type { FailedReason } from '../../shared/api';
import type { JobRecord, JobsRepo } from '../store';
import { diskFullReason, freeBytes, isDiskFullError, notEnoughSpaceReason, type Storage } from '../disk';
import { makePreview } from '../blender';
import { framePreviewName } from '../frames';
import { framesZipName, writeZip } from './job-files';
import { encodeVideo, VideoError, type FfmpegLookup } from '../video';

/**
 * normalizedSeconds = the sum over rendered frames of Blender's wall-clock render time of that frame,
 * multiplied by the device factor. This node renders on the CPU, whose factor is 1.
 */
export const CPU_FACTOR = 1;

/** What packaging needs from the node. */
export interface FinalizeDeps {
  jobs: JobsRepo;
  storage: Storage;
  log: Logger;
  /** Blender for the preview, when there is one. */
  blenderPath: string | null;
  env: NodeJS.ProcessEnv;
  /** Disk space kept free beyond the frames zip. */
  headroomBytes: number;
  /** FFmpeg, for a job whose plan makes a video from its frames (null: the node has none). */
  ffmpeg?: FfmpegLookup;
}

/** How packaging ended. */
export type FinalizeOutcome = { kind: 'completed'; job: JobRecord } | { kind: 'failed'; reason: FailedReason } | { kind: 'aborted' };

/**
 * Package a rendered job's outputs (frames zip, preview of the last frame) and complete it. Safe to run again after a
 * crash. The zip is a stored copy of every frame, so the disk must have room for it first.
 */
export async function finalizeJob(deps: FinalizeDeps, job: JobRecord, signal: AbortSignal): Promise<FinalizeOutcome> {
  const frames = deps.jobs.frames(job.id);
  const pkg = deps.storage.packageDir(job.id);
  await mkdir(pkg, { recursive: true });
  const zipPath = join(pkg, framesZipName(job));
  if (!existsSync(zipPath)) {
    let bytes = 0;
    for (const f of frames) bytes += (await stat(f.filePath)).size;
    const free = await freeBytes(pkg);
    if (free < bytes + deps.headroomBytes) return { kind: 'failed', reason: notEnoughSpaceReason('the frames zip', bytes, free) };
    try {
      await writeZip(zipPath, frames.map((f) => ({ path: f.filePath, name: basename(f.filePath) })), signal);
    } catch (err) {
      if (signal.aborted) return { kind: 'aborted' };
      if (isDiskFullError(err)) return { kind: 'failed', reason: diskFullReason('the frames zip could not be written') };
      throw err;
    }
  }
  const video = await makeJobVideo(deps, job, signal);
  if (video) return video;
  let previewPath: string | null = null;
  const last = frames.at(-1);
  const out = deps.storage.previewPath(job.id);
  const framePreview = last ? join(deps.storage.previewsDir(job.id), framePreviewName(last.filePath)) : null;
  if (!existsSync(out) && framePreview && existsSync(framePreview)) await copyFile(framePreview, out).catch(() => undefined);
  if (existsSync(out)) previewPath = out;
  else if (last && deps.blenderPath) {
    try {
      await makePreview({ blenderPath: deps.blenderPath, imagePath: last.filePath, outPath: out, maxSize: 512, signal, env: deps.env });
      previewPath = out;
    } catch (err) {
      if (signal.aborted) return { kind: 'aborted' };
      deps.log.warn({ jobId: job.id, err }, 'preview could not be made');
    }
  }
  if (signal.aborted) return { kind: 'aborted' };
  const normalizedSeconds = Math.round(frames.reduce((s, f) => s + f.seconds, 0) * CPU_FACTOR * 1000) / 1000;
  const done = deps.jobs.transition(job.id, ['finalizing'], 'completed', { previewPath, normalizedSeconds, completedAt: new Date().toISOString() });
  if (!done) return { kind: 'aborted' };
  deps.log.info({ jobId: job.id, frames: frames.length, normalizedSeconds }, 'job completed');
  return { kind: 'completed', job: done };
}

/** The size of a PNG frame, from its header. */
async function pngSize(path: string): Promise<{ width: number; height: number } | null> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(24);
    const { bytesRead } = await handle.read(head, 0, 24, 0);
    if (bytesRead < 24 || head.toString('latin1', 12, 16) !== 'IHDR') return null;
    return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  } finally {
    await handle.close();
  }
}

/**
 * Makes the job's video from its frames when its plan has one (once: a video already in the package
 * folder is kept). Resolves with the outcome that ends the job when the video cannot be made (the
 * frames stay downloadable), else null.
 */
async function makeJobVideo(deps: FinalizeDeps, job: JobRecord, signal: AbortSignal): Promise<FinalizeOutcome | null> {
  const plan = job.renderPlan?.video;
  if (!plan) return null;
  const outPath = join(deps.storage.packageDir(job.id), plan.fileName);
  if (existsSync(outPath)) return null;
  const failed = (message: string): FinalizeOutcome => ({ kind: 'failed', reason: { name: 'VideoNotMade', type: 'video', message: `${message} The frames rendered and can be downloaded.` } });
  const tools = deps.ffmpeg ? await deps.ffmpeg() : null;
  if (!tools) return failed(`The ${plan.label} video could not be made: this node no longer has FFmpeg.`);
  const frames = [...deps.jobs.frames(job.id)].sort((a, b) => a.frame - b.frame).map((f) => f.filePath);
  const size = frames[0] ? await pngSize(frames[0]) : null;
  if (!size) return failed(`The ${plan.label} video could not be made: the frames are not PNG images.`);
  try {
    const made = await encodeVideo({ tools, plan, frames, outPath, workDir: join(deps.storage.packageDir(job.id), '.video-frames'), size, signal, env: deps.env });
    deps.log.info({ jobId: job.id, video: plan.fileName, frames: made.frames, bytes: made.bytes }, 'video made');
    return null;
  } catch (err) {
    if (signal.aborted) return { kind: 'aborted' };
    if (isDiskFullError(err)) return { kind: 'failed', reason: diskFullReason('the video could not be written') };
    if (err instanceof VideoError) return failed(err.message);
    throw err;
  }
}
