import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { join } from 'node:path';
import type { Downloads, Job, JobStatus } from '../../shared/api';
import type { CallOptions } from '../api/api-client';
import { AbortError, TransferError } from '../errors';
import { ProgressMeter } from '../transfer/progress-meter';
import { abortableSleep } from '../util/abortable-sleep';
import { systemClock, type Clock, type Sleep } from '../util/clock';
import { runPool } from '../util/concurrency';
import { downloadFile, ExpiredUrlError } from './download-file';
import { jobFolderName } from './job-folder';
import { planOutputs, type PlannedOutput } from './output-plan';
import { resolveInside } from './safe-path';

/** The part of the API client downloads need. */
export interface DownloadsSource {
  getDownloads(jobId: string, options?: CallOptions): Promise<Downloads>;
  getJob(jobId: string, options?: CallOptions): Promise<Job>;
}

/** Progress of one job's download. */
export interface DownloadProgress {
  jobId: string;
  filesDone: number;
  filesSkipped: number;
  filesTotal: number;
  bytes: number;
  /** Sum of the sizes known so far (grows as files start). */
  bytesKnown: number;
  rate: number;
  done: boolean;
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
 * `/downloads` URLs when the signed ones expire.
 */
export async function downloadJobOutputs(options: DownloadJobOptions): Promise<DownloadJobResult> {
  const clock = options.clock ?? systemClock;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const call: CallOptions = options.signal ? { signal: options.signal } : {};
  let downloads = await options.client.getDownloads(options.jobId, call);
  const plan = planOutputs(downloads);
  if (plan.length === 0) {
    const job = await options.client.getJob(options.jobId, call);
    throw new TransferError(noOutputsMessage(options.jobId, job.status), { code: 'no-outputs' });
  }
  const dir = options.dir ?? (await defaultDir(options, call));
  const urls = new Map(plan.map((p) => [p.relativePath, p.url]));
  let generation = 0;
  let refreshes = 0;
  let refreshing: Promise<void> | null = null;
  const refreshUrls = async (seen: number) => {
    if (seen !== generation) return;
    refreshing ??= (async () => {
      if (++refreshes > (options.maxUrlRefreshes ?? 5)) {
        throw new TransferError(`The download links of job ${options.jobId} keep expiring. Check the computer's clock and try again.`, { code: 'url-expired' });
      }
      downloads = await options.client.getDownloads(options.jobId, call);
      for (const fresh of planOutputs(downloads)) urls.set(fresh.relativePath, fresh.url);
      generation++;
    })().finally(() => {
      refreshing = null;
    });
    await refreshing;
  };

  const meter = new ProgressMeter({ clock, total: null, intervalMs: options.progressIntervalMs ?? 250 });
  const state = { filesDone: 0, filesSkipped: 0 };
  const sizes = new Map<string, number>();
  let bytesKnown = 0;
  const knowSize = (relativePath: string, size: number) => {
    bytesKnown += size - (sizes.get(relativePath) ?? 0);
    sizes.set(relativePath, size);
  };
  const snapshot = (done: boolean): DownloadProgress => {
    const p = done ? meter.finish() : meter.peek();
    return { jobId: options.jobId, ...state, bytesKnown, filesTotal: plan.length, bytes: p.bytes, rate: p.rate, done };
  };
  const onBytes = (count: number) => {
    if (meter.add(count)) options.onProgress?.(snapshot(false));
  };
  const isHttps = plan.some((p) => p.url.startsWith('https:'));
  const concurrency = options.concurrency ?? 8;
  const pool = isHttps ? new HttpsAgent({ keepAlive: true, maxSockets: concurrency }) : new HttpAgent({ keepAlive: true, maxSockets: concurrency });
  const agent = pool instanceof HttpsAgent ? { https: pool } : { http: pool };
  const files: DownloadedFile[] = [];
  try {
    await runPool(plan, concurrency, async (entry: PlannedOutput) => {
      const path = resolveInside(dir, entry.relativePath);
      for (;;) {
        const seen = generation;
        try {
          const result = await downloadFile({
            url: () => urls.get(entry.relativePath)!,
            path,
            agent,
            sleep,
            clock,
            random,
            onBytes,
            onTotal: (total) => knowSize(entry.relativePath, total),
            ...(options.signal ? { signal: options.signal } : {}),
            ...(options.maxAttemptsPerFile !== undefined ? { maxAttempts: options.maxAttemptsPerFile } : {}),
          });
          if (result.outcome === 'skipped') state.filesSkipped++;
          knowSize(entry.relativePath, result.bytes);
          state.filesDone++;
          files.push({ relativePath: entry.relativePath, path, bytes: result.bytes, skipped: result.outcome === 'skipped' });
          options.onProgress?.(snapshot(false));
          return;
        } catch (error) {
          if (error instanceof ExpiredUrlError) {
            await refreshUrls(seen);
            continue;
          }
          throw error;
        }
      }
    });
  } catch (error) {
    if (options.signal?.aborted) throw new AbortError('Download stopped.');
    throw error;
  } finally {
    pool.destroy();
  }
  options.onProgress?.(snapshot(true));
  files.sort((a, b) => a.relativePath.localeCompare(b.relativePath));
  return { jobId: options.jobId, dir, files, bytes: files.reduce((sum, f) => sum + f.bytes, 0) };
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
