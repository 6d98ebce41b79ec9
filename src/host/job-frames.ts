import { readdir, readFile, stat } from 'node:fs/promises';
import type { ApiClient } from '../core/api/api-client';
import { itemPath } from '../core/download/output-plan';
import { resolveInside, sanitizeRelativePath } from '../core/download/safe-path';
import { ConfigError } from '../core/errors';
import type { Downloads } from '../shared/api/downloads';
import type { Job } from '../shared/api/job';
import { isTerminalStatus } from '../shared/api/job-status';
import { formatName } from '../shared/contract/setting-labels';
import type { FrameImage, FrameView, JobFrames as JobFramesView } from '../shared/contract/frame-views';
import { isPlainRecord } from '../shared/plain-record';
import { fetchPreview } from './fetch-preview';
import { frameViews, plannedFrames, viewableType, type KnownFile } from './frame-list';
import type { JobDownloads } from './job-downloads';

/** Frames the strip lists at most (the rest is counted). */
const MAX_LISTED = 5000;
/** Largest frame file shown in the app (bigger ones open in the artist's image viewer). */
const IMAGE_LIMIT = 48 * 1024 * 1024;
const DOWNLOADS_TTL_MS = 30_000;
const IMAGE_FILE = /\.(png|jpe?g|webp|bmp|gif|exr|tiff?|tga|hdr|dpx|cin|jp2|rgb|sgi)$/i;

/**
 * A job's frames for the frame strip and the viewer: which are done (from the server's frame outputs
 * and the job's folder on this computer), their pictures (read from disk when downloaded, else from
 * the server), and where a downloaded one is, to open it in the artist's own image viewer.
 */
export class JobFrames {
  readonly #client: ApiClient;
  readonly #downloads: JobDownloads;
  readonly #now: () => number;
  readonly #outputs = new Map<string, { at: number; downloads: Downloads }>();

  constructor(deps: { client: ApiClient; downloads: JobDownloads; now?: () => number }) {
    this.#client = deps.client;
    this.#downloads = deps.downloads;
    this.#now = deps.now ?? Date.now;
  }

  /** The job's frames, done, pending and missing. */
  async frames(jobId: string): Promise<JobFramesView> {
    const job = await this.#client.getJob(jobId);
    const ended = isTerminalStatus(job.status);
    const server = ended ? await this.#serverFiles(jobId, true) : [];
    const disk = await this.#diskFiles(jobId);
    const onDisk = new Set(disk);
    const files: KnownFile[] = [
      ...server.map((relativePath) => ({ relativePath, onDisk: onDisk.has(relativePath) })),
      ...disk.filter((path) => !server.includes(path)).map((relativePath) => ({ relativePath, onDisk: true })),
    ];
    const all = frameViews(plannedFrames(job.finalConfig, job.requestedConfig, job.analysis), files, ended);
    return {
      jobId,
      status: job.status,
      frames: all.slice(0, MAX_LISTED),
      moreFrames: Math.max(0, all.length - MAX_LISTED),
      fps: fpsOf(job),
      formatName: outputFormatOf(job),
      hasPreview: typeof job.previewUrl === 'string' && job.previewUrl !== '',
    };
  }

  /** One frame's picture as a data URL: from the job's folder when downloaded, else from the server. */
  async image(jobId: string, frame: number): Promise<FrameImage> {
    const view = await this.#find(jobId, frame);
    if (!view?.fileName) return { ok: false, reason: 'not-available' };
    const type = viewableType(view.fileName);
    if (!type) return { ok: false, reason: 'not-viewable' };
    if (view.onDisk) {
      const path = resolveInside(this.#downloads.jobDir(jobId), view.fileName);
      const info = await stat(path);
      if (info.size > IMAGE_LIMIT) return { ok: false, reason: 'too-large' };
      return { ok: true, dataUrl: `data:${type};base64,${(await readFile(path)).toString('base64')}` };
    }
    const url = await this.#urlOf(jobId, view.fileName);
    const dataUrl = url ? await fetchPreview(url, IMAGE_LIMIT) : null;
    return dataUrl ? { ok: true, dataUrl } : { ok: false, reason: 'not-available' };
  }

  /** Where a downloaded frame is on this computer (to open in the artist's image viewer); says so when it is not downloaded yet. */
  async pathOf(jobId: string, frame: number): Promise<string> {
    const view = await this.#find(jobId, frame);
    if (!view?.fileName || !view.onDisk) {
      throw new ConfigError(`Frame ${frame} is not on this computer yet. Download the frames first, then open it.`, { code: 'frame-not-downloaded' });
    }
    return resolveInside(this.#downloads.jobDir(jobId), view.fileName);
  }

  async #find(jobId: string, frame: number): Promise<FrameView | null> {
    const disk = await this.#diskFiles(jobId);
    const local = frameViews([], disk.map((relativePath) => ({ relativePath, onDisk: true })), true).find((f) => f.frame === frame);
    if (local) return local;
    const server = await this.#serverFiles(jobId, false);
    return frameViews([], server.map((relativePath) => ({ relativePath, onDisk: false })), true).find((f) => f.frame === frame) ?? null;
  }

  async #downloadsOf(jobId: string, fresh: boolean): Promise<Downloads> {
    const cached = this.#outputs.get(jobId);
    if (!fresh && cached && this.#now() - cached.at < DOWNLOADS_TTL_MS) return cached.downloads;
    const downloads = await this.#client.getDownloads(jobId);
    this.#outputs.set(jobId, { at: this.#now(), downloads });
    return downloads;
  }

  /** Relative paths of the frame files the server lists (the frames, not the compositor's outputs). */
  async #serverFiles(jobId: string, fresh: boolean): Promise<string[]> {
    const downloads = await this.#downloadsOf(jobId, fresh);
    return downloads.frameOutputs.map((item) => sanitizeRelativePath(itemPath(item)));
  }

  async #urlOf(jobId: string, relativePath: string): Promise<string | null> {
    const downloads = await this.#downloadsOf(jobId, false);
    return downloads.frameOutputs.find((item) => sanitizeRelativePath(itemPath(item)) === relativePath)?.url ?? null;
  }

  /** Image files at the top of the job's folder (compositor outputs live in sub-folders). */
  async #diskFiles(jobId: string): Promise<string[]> {
    const entries = await readdir(this.#downloads.jobDir(jobId), { withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isFile() && IMAGE_FILE.test(e.name) && !/^preview\./i.test(e.name)).map((e) => e.name);
  }
}

function configOf(job: Job): Record<string, unknown> {
  return isPlainRecord(job.finalConfig) ? job.finalConfig : isPlainRecord(job.requestedConfig) ? job.requestedConfig : {};
}

/** Frames per second: the render's, else the scene's (fps / fpsBase). */
function fpsOf(job: Job): number | null {
  const config = configOf(job);
  if (typeof config.fps === 'number' && config.fps > 0) return config.fps;
  if (isPlainRecord(job.analysis) && typeof job.analysis.fps === 'number' && job.analysis.fps > 0) {
    const base = typeof job.analysis.fpsBase === 'number' && job.analysis.fpsBase > 0 ? job.analysis.fpsBase : 1;
    return job.analysis.fps / base;
  }
  return null;
}

function outputFormatOf(job: Job): string | null {
  const config = configOf(job);
  if (typeof config.outputFormat === 'string') return formatName(config.outputFormat);
  if (isPlainRecord(job.analysis) && typeof job.analysis.outputFormat === 'string') return formatName(job.analysis.outputFormat);
  return null;
}
