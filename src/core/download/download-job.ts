import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Agents } from 'got';
import { join } from 'node:path';
import type { Downloads, Job, JobStatus } from '../../shared/api';
import type { CallOptions } from '../api';
import { AbortError, isAbort, TransferError } from '../errors';
import { abortableSleep, type Clock, runPool, type Sleep, systemClock } from '../util';
import { downloadFile, type FileDownloadOptions } from './download-file';
import { DownloadTally, type DownloadProgress } from './download-tally';
import { ExpiredUrlError } from './expired-url-error';
import { FrameFollower, type FramesCheck, type FramesSource, type FrameToFetch } from './frames-on-disk';
import { jobFolderName } from './job-folder';
import { planOutputs, type PlannedOutput } from './output-plan';
import { resolveInside } from './safe-path';
import { SignedUrls } from './signed-urls';

/** The part of the API client downloads need. */
export interface DownloadsSource {
  getDownloads(jobId: string, options?: CallOptions): Promise<Downloads>;
  getJob(jobId: string, options?: CallOptions): Promise<Job>;
  /** A Renderdrop node's frames route: frames already in the folder and current are then not asked for again. */
  getJobFrames?: FramesSource['getJobFrames'];
}

/** What to download and where. */
export interface DownloadJobOptions {
  client: DownloadsSource;
  jobId: string;
  /** Exact folder to write into. When absent: `<downloadRoot>/<scene name>-<short id>/`. */
  dir?: string;
  downloadRoot?: string;
  /** Scene name for the default folder (read from the job when absent). */
  sceneName?: string;
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  clock?: Clock;
  sleep?: Sleep;
  random?: () => number;
  progressIntervalMs?: number;
  /** Fresh `/downloads` calls allowed after signed URLs expired (default 5). */
  maxUrlRefreshes?: number;
  /** Attempts per file after broken connections and 5xx (default 5). */
  maxAttemptsPerFile?: number;
}

/** One file of a finished download. */
export interface DownloadedFile {
  relativePath: string;
  path: string;
  bytes: number;
  skipped: boolean;
}

/** A finished download. */
export interface DownloadJobResult {
  jobId: string;
  dir: string;
  files: DownloadedFile[];
  bytes: number;
}

/**
 * Downloads every output of a job into its folder, several files at once, each through a `.part`
 * file with Range resume and a size check, skipping files already complete, and fetching fresh
 * `/downloads` URLs when the signed ones expire. With a node's frames route, its frames come first
 * through a FrameFollower pass: frames already in the folder in their current version (fetched while
 * the job rendered) are kept without a request, and those rendered again since are fetched anew.
 */
export async function downloadJobOutputs(options: DownloadJobOptions): Promise<DownloadJobResult> {
  const clock = options.clock ?? systemClock;
  const call: CallOptions = options.signal ? { signal: options.signal } : {};
  const plan = planOutputs(await options.client.getDownloads(options.jobId, call));
  if (plan.length === 0) {
    const job = await options.client.getJob(options.jobId, call);
    throw new TransferError(noOutputsMessage(options.jobId, job.status), { code: 'no-outputs' });
  }
  const dir = options.dir ?? (await defaultDir(options, call));
  const concurrency = options.concurrency ?? 8;
  const frames = await checkFrames(options, dir);
  const pool = connectionPool(plan, concurrency);
  const fetcher: OutputFetcher = {
    dir,
    urls: new SignedUrls(plan, {
      jobId: options.jobId,
      fetchPlan: async () => planOutputs(await options.client.getDownloads(options.jobId, call)),
      maxRefreshes: options.maxUrlRefreshes ?? 5,
    }),
    tally: new DownloadTally({ jobId: options.jobId, filesTotal: plan.length, clock, progressIntervalMs: options.progressIntervalMs ?? 250, ...(options.onProgress ? { onProgress: options.onProgress } : {}) }),
    file: {
      agent: pool.agent,
      sleep: options.sleep ?? abortableSleep,
      clock,
      random: options.random ?? Math.random,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.maxAttemptsPerFile !== undefined ? { maxAttempts: options.maxAttemptsPerFile } : {}),
    },
  };
  const files: DownloadedFile[] = [];
  try {
    await runPool(plan, concurrency, async (entry) => {
      const kept = frames?.current.get(entry.relativePath);
      files.push(kept !== undefined ? keptFrame(fetcher, entry, kept) : await fetchOutput(fetcher, entry, frames?.toFetch.get(entry.relativePath)));
    });
  } catch (error) {
    if (options.signal?.aborted) throw new AbortError('Download stopped.');
    throw error;
  } finally {
    pool.destroy();
  }
  fetcher.tally.finish();
  files.sort((a, b) => a.relativePath.localeCompare(b.relativePath));
  return { jobId: options.jobId, dir, files, bytes: files.reduce((sum, f) => sum + f.bytes, 0) };
}

/** What every file of a job's download shares. */
interface OutputFetcher {
  dir: string;
  urls: SignedUrls;
  tally: DownloadTally;
  /** The options of {@link downloadFile} that are the same for every file. */
  file: Pick<FileDownloadOptions, 'agent' | 'sleep' | 'clock' | 'random' | 'signal' | 'maxAttempts'>;
}

/**
 * Downloads one output into the job's folder, with fresh URLs as often as the signed one expires; a
 * frame the frames route says is newer than the file in the folder replaces it and takes its time.
 */
async function fetchOutput(fetcher: OutputFetcher, entry: PlannedOutput, frame?: FrameToFetch): Promise<DownloadedFile> {
  const { urls, tally } = fetcher;
  const path = resolveInside(fetcher.dir, entry.relativePath);
  for (;;) {
    const seen = urls.generation;
    try {
      const result = await downloadFile({
        ...fetcher.file,
        url: () => urls.urlOf(entry.relativePath),
        path,
        ...(frame?.replace ? { replace: true } : {}),
        ...(frame?.mtimeMs !== undefined ? { mtimeMs: frame.mtimeMs } : {}),
        onBytes: tally.addBytes,
        onTotal: (total) => tally.knowSize(entry.relativePath, total),
      });
      const skipped = result.outcome === 'skipped';
      tally.fileDone(entry.relativePath, result.bytes, skipped);
      return { relativePath: entry.relativePath, path, bytes: result.bytes, skipped };
    } catch (error) {
      if (!(error instanceof ExpiredUrlError)) throw error;
      await urls.refresh(seen);
    }
  }
}

/**
 * Which frames of the folder are the node's current version and which were rendered again since they
 * were fetched (one frames call); null without the route, or when the call fails (each file is then
 * checked by its size, as on any server).
 */
async function checkFrames(options: DownloadJobOptions, dir: string): Promise<FramesCheck | null> {
  const client = options.client;
  if (!client.getJobFrames) return null;
  const follower = new FrameFollower({ source: client as FramesSource, jobId: options.jobId, dir, ...(options.signal ? { signal: options.signal } : {}) });
  try {
    return await follower.check();
  } catch (error) {
    if (isAbort(error) || options.signal?.aborted) throw new AbortError('Download stopped.');
    return null;
  }
}

/** A frame the frames route says the folder holds in its current version, counted without a request. */
function keptFrame(fetcher: OutputFetcher, entry: PlannedOutput, bytes: number): DownloadedFile {
  fetcher.tally.fileDone(entry.relativePath, bytes, true);
  return { relativePath: entry.relativePath, path: resolveInside(fetcher.dir, entry.relativePath), bytes, skipped: true };
}

/** Keep-alive connections shared by the files of one download, at most one per file running at once. */
function connectionPool(plan: readonly PlannedOutput[], concurrency: number): { agent: Agents; destroy: () => void } {
  const isHttps = plan.some((p) => p.url.startsWith('https:'));
  if (isHttps) {
    const https = new HttpsAgent({ keepAlive: true, maxSockets: concurrency });
    return { agent: { https }, destroy: () => https.destroy() };
  }
  const http = new HttpAgent({ keepAlive: true, maxSockets: concurrency });
  return { agent: { http }, destroy: () => http.destroy() };
}

/** Why a job has nothing to download, by its status. */
function noOutputsMessage(jobId: string, status: JobStatus): string {
  switch (status) {
    case 'canceled':
      return `Job ${jobId} was canceled before it wrote any output; there is nothing to download.`;
    case 'failed':
      return `Job ${jobId} failed before it wrote any output; there is nothing to download.`;
    case 'completed':
      return `Job ${jobId} is completed, but the server lists no outputs for it. Check the job on the server.`;
    default:
      return `Job ${jobId} has no outputs to download yet (it is ${status}). Wait until it is completed.`;
  }
}

async function defaultDir(options: DownloadJobOptions, call: CallOptions): Promise<string> {
  if (!options.downloadRoot) throw new TransferError('No download folder given. Choose one with --dir or in Settings.', { code: 'no-download-dir' });
  if (options.sceneName) return join(options.downloadRoot, jobFolderName({ id: options.jobId }, options.sceneName));
  const job = await options.client.getJob(options.jobId, call);
  return join(options.downloadRoot, jobFolderName(job));
}
