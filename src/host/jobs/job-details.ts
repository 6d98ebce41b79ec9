import { stat } from 'node:fs/promises';
import type { ApiClient } from '../../core/api';
import { analysisForArtist } from '../../core/packing';
import { planOutputs, resolveInside } from '../../core/download';
import { estimateOf, type Job, jobWarningsOf, timelineOf } from '../../shared/api';
import { renderTookSeconds } from '../../shared/render';
import { isPlainRecord } from '../../shared/plain-record';
import { diffConfigs, type JobDetail, type OutputFileView } from '../../shared/contract';
import { fetchPreview } from './fetch-preview';
import type { JobDownloads } from './job-downloads';
import type { ProfileJobs } from './profile-jobs';
import { readAnalysis } from './read-analysis';
import type { SubmittedJobs } from './submitted-jobs';

const PREVIEW_LIMIT = 8 * 1024 * 1024;

/** What the job detail panel shows: analysis, requested against final settings, timeline, outputs, preview. */
export class JobDetails {
  readonly #client: ApiClient;
  readonly #jobs: ProfileJobs;
  readonly #downloads: JobDownloads;
  readonly #submitted: Pick<SubmittedJobs, 'get'>;
  readonly #isStaged: (path: string) => boolean;

  constructor(deps: { client: ApiClient; jobs: ProfileJobs; downloads: JobDownloads; submitted: Pick<SubmittedJobs, 'get'>; isStaged: (path: string) => boolean }) {
    this.#client = deps.client;
    this.#jobs = deps.jobs;
    this.#downloads = deps.downloads;
    this.#submitted = deps.submitted;
    this.#isStaged = deps.isStaged;
  }

  /** The job detail panel's data (the queue is updated with what the server said). */
  async detail(jobId: string): Promise<JobDetail> {
    const job = await this.#client.getJob(jobId);
    const summary = this.#jobs.put(job);
    const requested = isPlainRecord(job.requestedConfig) ? job.requestedConfig : null;
    const final = isPlainRecord(job.finalConfig) ? job.finalConfig : null;
    const analysis = readAnalysis(this.#artistAnalysis(jobId, job.analysis));
    return {
      summary,
      analysis: analysis && { ...analysis, warnings: jobWarningsOf({ status: job.status, analysis, waiting: job.waiting }) },
      requestedConfig: requested,
      finalConfig: final,
      differences: diffConfigs(requested, final),
      timeline: timelineOf(job),
      outputs: job.status === 'completed' || job.status === 'canceled' || job.status === 'failed' ? await this.#outputs(jobId) : [],
      hasPreview: typeof job.previewUrl === 'string' && job.previewUrl !== '',
      ...estimateAgainstTakenOf(job),
    };
  }

  /** The job's preview image as a data URL, or null when it has none or it is not a usable image. */
  async preview(jobId: string): Promise<string | null> {
    const job = await this.#client.getJob(jobId);
    if (typeof job.previewUrl !== 'string' || job.previewUrl === '') return null;
    return fetchPreview(job.previewUrl, PREVIEW_LIMIT);
  }

  /** The farm's analysis with packed files named as the artist knows them (never by their place in the bundle). */
  #artistAnalysis(jobId: string, analysis: unknown): unknown {
    const record = this.#submitted.get(jobId);
    if (!record) return analysis;
    return analysisForArtist(analysis, record.packing, this.#isStaged(record.file.path) ? 'stored' : 'disk');
  }

  async #outputs(jobId: string): Promise<OutputFileView[]> {
    const plan = planOutputs(await this.#client.getDownloads(jobId));
    const dir = this.#downloads.jobDir(jobId);
    return Promise.all(
      plan.map(async (entry): Promise<OutputFileView> => {
        const path = resolveInside(dir, entry.relativePath);
        const done = await stat(path).catch(() => null);
        if (done?.isFile()) return { relativePath: entry.relativePath, state: 'downloaded', bytes: done.size };
        const part = await stat(`${path}.part`).catch(() => null);
        return { relativePath: entry.relativePath, state: part ? 'partial' : 'missing', bytes: part?.size ?? null };
      }),
    );
  }
}

/** A completed job's estimate from before Start against the render time it took, when its farm (a Renderdrop node) gave one. */
function estimateAgainstTakenOf(job: Job): Pick<JobDetail, 'estimateAgainstTaken'> {
  const estimate = job.status === 'completed' ? estimateOf(job) : null;
  const took = estimate ? renderTookSeconds(job) : null;
  return estimate && took !== null ? { estimateAgainstTaken: { estimatedSeconds: estimate.seconds, tookSeconds: took } } : {};
}
