import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MAX_UPLOAD_BYTES } from '../../shared/api';
import { formatBytes } from '../../shared/text';
import { HttpError, insufficientStorage, notFound } from '../http-error';
import { freeBytes, isDiskFullError, type Storage } from '../disk';
import type { JobRecord, JobsRepo } from '../store';
import type { ChunkRecord, ChunksRepo } from './chunks-repo';
import type { DistributedExecutor } from './executor';
import { expectedFrameNames, framePreviewName } from '../frames';
import { frameProblem } from './frame-check';
import { MAX_PREVIEW_BYTES, previewProblem } from './preview-check';
import type { ChunkStatus } from './protocol';
import { isPlainName } from './plain-name';

/** A file a worker sends: its bytes and their announced length. */
export interface IncomingFile {
  body: Readable;
  length: number;
}

const RENDERING = new Set(['booting', 'rendering']);
const retryLater = (message: string) => new HttpError(503, 'retry_later', message, { 'Retry-After': '2' });

/**
 * What the node accepts from workers for a chunk: its status, its scene, and the files it renders.
 * Frames are accepted only for the chunk's frames under the names Blender gives them, written aside
 * and moved into place, and counted through the runner like the node's own frames.
 */
export class ChunkIntake {
  constructor(
    private readonly deps: {
      executor: DistributedExecutor;
      jobs: JobsRepo;
      chunks: ChunksRepo;
      storage: Storage;
      uploadPath: (slug: string) => string;
      /** Disk space kept free beyond a received file (database, packaging). */
      headroomBytes: number;
    },
  ) {}

  /** The chunk's status; `onTaken` hears which of its frames are left to render when the job still renders and some are. */
  status(jobId: string, index: number, onTaken?: (frames: number[]) => void): ChunkStatus {
    const { job, chunk } = this.lookup(jobId, index);
    const have = this.deps.chunks.recordedFrames(jobId);
    const status = { active: RENDERING.has(job.status), have: chunk.frames.filter((f) => have.has(f)) };
    const todo = chunk.frames.filter((f) => !have.has(f));
    if (status.active && todo.length > 0) onTaken?.(todo);
    return status;
  }

  /** The stored file of the job's scene (its upload). */
  scenePath(jobId: string, index: number): string {
    const { job } = this.lookup(jobId, index);
    return this.deps.uploadPath(job.uploadSlug);
  }

  /** Store and count one rendered frame, made by `worker`; a frame the node already has is acknowledged and dropped. */
  async receiveFrame(jobId: string, index: number, frame: number, name: string, file: IncomingFile, seconds: number, worker: string | null = null): Promise<{ counted: boolean }> {
    const active = this.deps.executor.activeRender(jobId);
    const chunk = active?.chunks.get(index) ?? this.lookup(jobId, index).chunk;
    if (!chunk.frames.includes(frame)) throw new HttpError(403, 'frame_not_in_chunk', `Frame ${frame} is not part of this chunk.`);
    const plan = active?.task.plan ?? this.lookup(jobId, index).job.renderPlan;
    if (!plan) throw new HttpError(409, 'job_not_rendering', 'This job has no render to take frames for.');
    const names = expectedFrameNames(plan.fileNamePattern, plan.outputFormat, frame);
    if (!names.includes(name)) {
      throw new HttpError(400, 'unexpected_name', `Frame ${frame} must be named ${names.join(' or ') || '(no name: unknown format)'}, not ${name}.`);
    }
    const status = this.deps.chunks.jobStatus(jobId);
    if (!status || !RENDERING.has(status)) throw new HttpError(409, 'job_not_rendering', `The job is ${status ?? 'gone'}; its frames are no longer taken.`);
    if (this.deps.chunks.hasFrame(jobId, frame)) {
      file.body.resume();
      return { counted: false };
    }
    if (!active) throw retryLater('The node is not coordinating this render yet (it may be starting); send the frame again shortly.');
    if (active.receiving.has(frame)) throw retryLater(`Frame ${frame} is being received from another worker; send it again shortly.`);
    active.receiving.add(frame);
    try {
      const target = join(plan.outputDir, name);
      await this.store(jobId, `frame ${frame}`, file, target);
      const problem = await frameProblem(target, plan.outputFormat);
      if (problem) {
        await rm(target, { force: true });
        throw new HttpError(422, 'frame_refused', `Frame ${frame} was not counted: ${problem}.`);
      }
      const counted = await active.task.onFrame({ frame, path: target, seconds, worker });
      if (!counted) throw new HttpError(422, 'frame_incomplete', `Frame ${frame} is not a whole image file; it was not counted.`);
    } finally {
      active.receiving.delete(frame);
    }
    this.deps.executor.frameCounted(jobId);
    return { counted: true };
  }

  /**
   * Store the small PNG a worker made of a frame it is about to send (`name` is the frame file's
   * name), where the node keeps its own frame previews, so the frame shows in the app as soon as it is
   * counted. A frame the node already has is acknowledged and its preview dropped. A preview that is
   * not a small whole PNG is refused; it never fails the render.
   */
  async receivePreview(jobId: string, index: number, frame: number, name: string, file: IncomingFile): Promise<{ stored: boolean }> {
    const { job, chunk } = this.lookup(jobId, index);
    if (!chunk.frames.includes(frame)) throw new HttpError(403, 'frame_not_in_chunk', `Frame ${frame} is not part of this chunk.`);
    const plan = job.renderPlan;
    if (!plan) throw new HttpError(409, 'job_not_rendering', 'This job has no render to take previews for.');
    if (!expectedFrameNames(plan.fileNamePattern, plan.outputFormat, frame).includes(name)) throw new HttpError(400, 'unexpected_name', `Frame ${frame} has no file named ${name}.`);
    this.requireRendering(job);
    if (file.length > MAX_PREVIEW_BYTES) throw new HttpError(413, 'too_large', 'A frame preview must be smaller than 4 MiB.');
    if (this.deps.chunks.hasFrame(jobId, frame)) {
      file.body.resume();
      return { stored: false };
    }
    const dir = this.deps.storage.previewsDir(jobId);
    const free = await freeBytes(this.deps.storage.jobDir(jobId)).catch(() => Infinity);
    if (file.length + this.deps.headroomBytes > free) {
      file.body.resume();
      throw insufficientStorage('The render node has no room for this preview.');
    }
    const temp = join(dir, `.preview-${randomBytes(6).toString('hex')}.png`);
    try {
      await receiveFile(file, temp);
      const problem = await previewProblem(temp);
      if (problem) throw new HttpError(422, 'preview_refused', `The preview of frame ${frame} was not kept: ${problem}.`);
      await rename(temp, join(dir, framePreviewName(name)));
    } finally {
      await rm(temp, { force: true });
    }
    return { stored: true };
  }

  /** Store a compositor File Output file of the chunk in the job's composite folder. */
  async receiveComposite(jobId: string, index: number, node: string, name: string, file: IncomingFile): Promise<void> {
    const { job } = this.lookup(jobId, index);
    if (!isPlainName(node) || !isPlainName(name)) throw new HttpError(400, 'unexpected_name', 'Compositor outputs must be one folder and one plain file name.');
    this.requireRendering(job);
    await this.store(jobId, `a compositor output of chunk ${index + 1}`, file, join(this.deps.storage.compositeDir(jobId), node, name));
  }

  /**
   * Receive a file of a render into `target`. When the node's disk cannot hold it (less free than the
   * file and the headroom, or the disk filling up under it), the render fails for lack of disk space at
   * once and the worker is answered 507, which it does not send again.
   */
  private async store(jobId: string, what: string, file: IncomingFile, target: string): Promise<void> {
    const free = await freeBytes(this.deps.storage.jobDir(jobId)).catch(() => Infinity);
    if (Number.isSafeInteger(file.length) && file.length > 0 && file.length + this.deps.headroomBytes > free) {
      file.body.resume();
      throw this.outOfSpace(jobId, `${what} could not be stored (${formatBytes(file.length)}, and ${formatBytes(free)} is free)`);
    }
    try {
      await receiveFile(file, target);
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 507) throw this.outOfSpace(jobId, `${what} could not be stored completely`);
      throw err;
    }
  }

  private outOfSpace(jobId: string, what: string): HttpError {
    this.deps.executor.diskFull(jobId, what);
    return insufficientStorage(`The render node's disk is full: ${what}. The job fails; free space on the node's disk, then submit it again.`);
  }

  private lookup(jobId: string, index: number): { job: JobRecord; chunk: ChunkRecord } {
    const job = this.deps.jobs.get(jobId);
    const chunk = job ? this.deps.chunks.get(jobId, index) : null;
    if (!job || !chunk) throw notFound('No such chunk.');
    return { job, chunk };
  }

  private requireRendering(job: JobRecord): void {
    if (!RENDERING.has(job.status)) throw new HttpError(409, 'job_not_rendering', `The job is ${job.status}; its frames are no longer taken.`);
  }
}

/** Write a body of exactly `length` bytes beside `target`, then move it into place. */
async function receiveFile(file: IncomingFile, target: string): Promise<void> {
  if (!Number.isSafeInteger(file.length) || file.length <= 0) throw new HttpError(411, 'length_required', 'Send the file with its exact Content-Length.');
  if (file.length >= MAX_UPLOAD_BYTES) throw new HttpError(413, 'too_large', 'Rendered files must be smaller than 5 GiB.');
  await mkdir(dirname(target), { recursive: true });
  const temp = join(dirname(target), `.incoming-${randomBytes(6).toString('hex')}`);
  let received = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      done(received > file.length ? new HttpError(400, 'length_mismatch', 'More bytes arrived than Content-Length announced.') : null, chunk);
    },
  });
  try {
    await pipeline(file.body, count, createWriteStream(temp));
    if (received !== file.length) throw new HttpError(400, 'length_mismatch', `Received ${received} of ${file.length} bytes; send the file again.`);
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    if (err instanceof HttpError) throw err;
    if (isDiskFullError(err)) throw insufficientStorage('The render node ran out of disk space while storing this file.');
    throw new HttpError(400, 'upload_incomplete', `The file stopped after ${received} of ${file.length} bytes; send it again.`);
  }
}
