import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiClient } from '../../core/api';
import { downloadJobOutputs, type DownloadProgress, FrameFollower, type FramesOnDisk, jobFolderName, LiveFrameFollow } from '../../core/download';
import { serializeError } from '../../core/errors';
import { isFinished } from '../../core/journal';
import type { HostEvents } from '../environment';
import type { ProfileJobs } from './profile-jobs';
import type { SubmittedJobs } from './submitted-jobs';
import { bytesTimeLeft } from '../../core/transfer';

/** What downloads work with. */
export interface JobDownloadsDeps {
  client: ApiClient;
  jobs: ProfileJobs;
  submitted: SubmittedJobs;
  events: HostEvents;
  downloadRoot: () => string;
}

/**
 * The outputs of a profile's jobs on this computer: one folder per job (the one its submission chose,
 * else `<scene>-<short id>` in the download folder), downloads on request, and their progress in the
 * queue and as transfer events.
 */
export class JobDownloads {
  readonly #deps: JobDownloadsDeps;
  readonly #running = new Map<string, AbortController>();
  readonly #follows = new Map<string, { live: LiveFrameFollow; abort: AbortController }>();

  constructor(deps: JobDownloadsDeps) {
    this.#deps = deps;
  }

  /** The folder a job's outputs go to. */
  jobDir(jobId: string): string {
    const summary = this.#deps.jobs.queue.get(jobId);
    if (summary?.download.dir) return summary.download.dir;
    const record = this.#deps.submitted.get(jobId);
    if (record?.downloadedTo) return record.downloadedTo;
    if (record?.download.dir) return record.download.dir;
    const root = record?.download.root ?? this.#deps.downloadRoot();
    const scene = (summary?.fileName ?? record?.file.name ?? 'job').replace(/\.(blend\d*|zip)$/i, '');
    return join(root, jobFolderName({ id: jobId }, scene));
  }

  /** Makes sure a job's folder exists (for "Open folder") and returns it; the download folder when nothing was downloaded. */
  async ensureJobDir(jobId: string): Promise<string> {
    const summary = this.#deps.jobs.queue.get(jobId);
    const dir = summary?.download.state === 'none' ? this.#deps.downloadRoot() : this.jobDir(jobId);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  /**
   * Brings the frames of a rendering job into its folder as they are rendered (the automatic download
   * of a job no unfinished submission follows: one sent from elsewhere, or rendered again after its
   * submission ended); one pass per call, never two at once. Its download at the end completes the folder.
   */
  followRendering(jobId: string): void {
    const record = this.#deps.submitted.get(jobId);
    if (record && !isFinished(record)) return;
    let follow = this.#follows.get(jobId);
    if (!follow) {
      const dir = this.jobDir(jobId);
      const abort = new AbortController();
      const follower = new FrameFollower({ source: this.#deps.client, jobId, dir, signal: abort.signal, onFrames: (p) => this.framesOnDisk(p, dir) });
      follow = { live: new LiveFrameFollow(follower), abort };
      this.#follows.set(jobId, follow);
    }
    follow.live.poke();
  }

  /** Stops bringing a job's frames in (it ended), once the pass under way is done. */
  async stopFollowing(jobId: string): Promise<void> {
    const follow = this.#follows.get(jobId);
    this.#follows.delete(jobId);
    await follow?.live.settle();
  }

  /** Downloads every output of a job into its folder (again), reporting progress. */
  async download(jobId: string) {
    await this.stopFollowing(jobId);
    const { client, jobs } = this.#deps;
    if (!jobs.queue.get(jobId)) jobs.put(await client.getJob(jobId));
    if (this.#running.has(jobId)) return jobs.queue.get(jobId)!;
    const dir = this.jobDir(jobId);
    const abort = new AbortController();
    this.#running.set(jobId, abort);
    jobs.queue.patch(jobId, (s) => ({ ...s, download: { ...s.download, state: 'downloading', dir, error: null } }));
    try {
      const result = await downloadJobOutputs({ client, jobId, dir, signal: abort.signal, onProgress: (p) => this.progress(p, dir) });
      const files = result.files.length;
      jobs.queue.patch(jobId, (s) => ({ ...s, download: { ...s.download, state: 'done', dir: result.dir, filesDone: files, filesTotal: files, error: null } }));
    } catch (error) {
      this.failed(jobId, serializeError(error).message);
      throw error;
    } finally {
      this.#running.delete(jobId);
    }
    return jobs.queue.get(jobId)!;
  }

  /** Shows a download's progress (also of downloads a submission runs). */
  progress(p: DownloadProgress, dir: string | null): void {
    this.#deps.events.emit('transfer.progress', {
      id: `download:${p.jobId}`,
      kind: 'download',
      submissionId: null,
      jobId: p.jobId,
      bytes: p.bytes,
      total: p.bytesKnown || null,
      rate: p.rate,
      etaSeconds: p.done ? 0 : bytesTimeLeft({ bytes: p.bytes, total: p.bytesKnown || null, rate: p.rate, done: false }),
      done: p.done,
    });
    this.#deps.jobs.queue.patch(p.jobId, (s) => ({
      ...s,
      download: { state: p.done ? 'done' : 'downloading', dir: dir ?? s.download.dir, filesDone: p.filesDone, filesTotal: p.filesTotal, bytes: p.bytes, error: null },
    }));
  }

  /** Shows the frames of a rendering job already in its folder (the download at the end completes it). */
  framesOnDisk(p: FramesOnDisk, dir: string | null): void {
    this.#deps.jobs.queue.patch(p.jobId, (s) => ({
      ...s,
      download: { ...s.download, state: 'downloading', dir: dir ?? s.download.dir, filesDone: p.onDisk, filesTotal: p.totalFrames, error: null },
    }));
  }

  /**
   * After a job that was followed ended without completing (failed, canceled): the frames it brought in
   * are what the folder holds, so the row says they are downloaded (none: nothing was).
   */
  followEnded(jobId: string): void {
    if (this.#running.has(jobId)) return;
    this.#deps.jobs.queue.patch(jobId, (s) => {
      if (s.download.state !== 'downloading') return s;
      const files = s.download.filesDone;
      return { ...s, download: { ...s.download, state: files > 0 ? 'done' : 'none', filesTotal: files, error: null } };
    });
  }

  /** Marks a job's outputs as downloaded into `dir`. */
  done(jobId: string, dir: string): void {
    this.#deps.jobs.queue.patch(jobId, (s) => ({ ...s, download: { ...s.download, state: 'done', dir, error: null } }));
  }

  /** Marks a job's download as failed, saying why. */
  failed(jobId: string, message: string): void {
    this.#deps.jobs.queue.patch(jobId, (s) => ({ ...s, download: { ...s.download, state: 'failed', error: message } }));
  }

  /** Stops every download (partial files stay and resume). */
  close(): void {
    for (const abort of this.#running.values()) abort.abort();
    for (const follow of this.#follows.values()) follow.abort.abort();
    this.#follows.clear();
  }
}
