import { readdir, readFile, stat } from 'node:fs/promises';
import type { ApiClient } from '../../core/api';
import { itemPath, resolveInside, sanitizeRelativePath } from '../../core/download';
import { ConfigError, NotFoundError } from '../../core/errors';
import { type Job, isTerminalStatus } from '../../shared/api';
import { formatName, type FrameImage, type FrameStripView } from '../../shared/contract';
import { isPlainRecord } from '../../shared/plain-record';
import { renderedByText } from '../../shared/render';
import { fetchPreview } from './fetch-preview';
import { frameNumberOf, frameViews, plannedFrames, viewableType, type KnownFile } from './frame-list';
import type { JobDownloads } from './job-downloads';

/** Frames the strip lists at most (the rest is counted). */
const MAX_LISTED = 5000;
/** Largest frame file shown in the app (bigger ones open in the artist's image viewer). */
const IMAGE_LIMIT = 48 * 1024 * 1024;
const DOWNLOADS_TTL_MS = 30_000;
/** A rendered file as the server lists it, or as found in the job's folder. */
interface ServerFile extends KnownFile {
  url: string | null;
  previewUrl: string | null;
  /** The render worker that rendered it, when the node says (null: the node's own Blender). */
  worker?: string | null;
}

const IMAGE_FILE = /\.(png|jpe?g|webp|bmp|gif|exr|tiff?|tga|hdr|dpx|cin|jp2|rgb|sgi)$/i;

/**
 * A job's frames for the frame strip and the viewer: which are done (from the server's frame outputs
 * and the job's folder on this computer), their pictures (read from disk when downloaded, else from
 * the server), and where a downloaded one is, to open it in the artist's own image viewer.
 */
export class JobFrameStrip {
  readonly #client: ApiClient;
  readonly #downloads: JobDownloads;
  readonly #now: () => number;
  readonly #outputs = new Map<string, { at: number; files: ServerFile[] }>();
  /** Whether the server answers the Renderdrop node's frames list (until it says it does not). */
  #nodeFrames = true;

  constructor(deps: { client: ApiClient; downloads: JobDownloads; now?: () => number }) {
    this.#client = deps.client;
    this.#downloads = deps.downloads;
    this.#now = deps.now ?? Date.now;
  }

  /** The job's frames, done, pending and missing. */
  async frames(jobId: string): Promise<FrameStripView> {
    const job = await this.#client.getJob(jobId);
    const ended = isTerminalStatus(job.status);
    // A Renderdrop node lists the frames written so far; another farm's download list fills in only once the job has ended.
    const known = await this.#known(jobId, ended || this.#nodeFrames, true);
    const all = frameViews(plannedFrames(job.finalConfig, job.requestedConfig, job.analysis), known, ended);
    return {
      jobId,
      status: job.status,
      frames: all.slice(0, MAX_LISTED),
      moreFrames: Math.max(0, all.length - MAX_LISTED),
      fps: fpsOf(job),
      formatName: outputFormatOf(job),
      hasPreview: typeof job.previewUrl === 'string' && job.previewUrl !== '',
      renderedBy: renderedByText(known.flatMap((f) => {
        const frame = frameNumberOf(f.relativePath);
        return frame === null || f.worker === undefined ? [] : [{ frame, worker: f.worker }];
      })),
    };
  }

  /**
   * One frame's picture as a data URL: the file from the job's folder when downloaded, else from the
   * server; for a file a browser cannot show (EXR, TIFF), the server's preview of it when it has one.
   * A `thumbnail` (a tile of the grid) is the server's small preview whenever it has one, so a grid of
   * frames still on the server does not fetch every full-size file.
   */
  async image(jobId: string, frame: number, thumbnail = false): Promise<FrameImage> {
    const view = (await this.#known(jobId, true, false)).find((f) => frameNumberOf(f.relativePath) === frame) ?? null;
    if (!view) return { ok: false, reason: 'not-available' };
    const type = viewableType(view.relativePath);
    if (thumbnail && !view.onDisk && view.previewUrl) {
      const preview = await fetchPreview(view.previewUrl, IMAGE_LIMIT);
      if (preview) return { ok: true, dataUrl: preview, preview: true };
    }
    if (type && view.onDisk) {
      const path = resolveInside(this.#downloads.jobDir(jobId), view.relativePath);
      const info = await stat(path);
      if (info.size > IMAGE_LIMIT) return { ok: false, reason: 'too-large' };
      return { ok: true, dataUrl: `data:${type};base64,${(await readFile(path)).toString('base64')}`, preview: false };
    }
    const url = type ? view.url : view.previewUrl;
    if (!url) return { ok: false, reason: type ? 'not-available' : 'not-viewable' };
    const dataUrl = await fetchPreview(url, IMAGE_LIMIT);
    return dataUrl ? { ok: true, dataUrl, preview: !type } : { ok: false, reason: 'not-available' };
  }

  /** Where a downloaded frame is on this computer (to open in the artist's image viewer); says so when it is not downloaded yet. */
  async pathOf(jobId: string, frame: number): Promise<string> {
    const view = (await this.#diskFiles(jobId)).find((name) => frameNumberOf(name) === frame);
    if (!view) {
      throw new ConfigError(`Frame ${frame} is not on this computer yet. Download the frames first, then open it.`, { code: 'frame-not-downloaded' });
    }
    return resolveInside(this.#downloads.jobDir(jobId), view);
  }

  /** The rendered files known of a job: the server's frame outputs (when `withServer`) and the image files in its folder. */
  async #known(jobId: string, withServer: boolean, fresh: boolean): Promise<ServerFile[]> {
    const server = withServer ? await this.#serverFiles(jobId, fresh) : [];
    const disk = new Set(await this.#diskFiles(jobId));
    return [
      ...server.map((f) => ({ ...f, onDisk: disk.has(f.relativePath) })),
      ...[...disk].filter((path) => !server.some((f) => f.relativePath === path)).map((relativePath) => ({ relativePath, onDisk: true, url: null, previewUrl: null, hasPreview: false })),
    ];
  }

  /**
   * The frame files the server has (the frames, not the compositor's outputs), with a preview URL when
   * it sends one: a Renderdrop node lists the frames rendered so far in any state; another farm's
   * download list is used otherwise (it lists frames once the job has ended).
   */
  async #serverFiles(jobId: string, fresh: boolean): Promise<ServerFile[]> {
    const cached = this.#outputs.get(jobId);
    if (!fresh && cached && this.#now() - cached.at < DOWNLOADS_TTL_MS) return cached.files;
    const files = await this.#listServerFiles(jobId);
    this.#outputs.set(jobId, { at: this.#now(), files });
    return files;
  }

  async #listServerFiles(jobId: string): Promise<ServerFile[]> {
    if (this.#nodeFrames) {
      try {
        const { frames } = await this.#client.getJobFrames(jobId);
        return frames.map((f) => ({ ...serverFile(f.fileName, f.url, f.previewUrl), ...(f.worker !== undefined ? { worker: f.worker } : {}) }));
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        this.#nodeFrames = false;
      }
    }
    const downloads = await this.#client.getDownloads(jobId);
    return downloads.frameOutputs.map((item) => serverFile(itemPath(item), item.url, item.previewUrl));
  }

  /** Image files at the top of the job's folder (compositor outputs live in sub-folders). */
  async #diskFiles(jobId: string): Promise<string[]> {
    const entries = await readdir(this.#downloads.jobDir(jobId), { withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isFile() && IMAGE_FILE.test(e.name) && !/^preview\./i.test(e.name)).map((e) => e.name);
  }
}

function serverFile(path: string, url: string, preview: unknown): ServerFile {
  const previewUrl = typeof preview === 'string' && preview !== '' ? preview : null;
  return { relativePath: sanitizeRelativePath(path), onDisk: false, url, previewUrl, hasPreview: previewUrl !== null };
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
