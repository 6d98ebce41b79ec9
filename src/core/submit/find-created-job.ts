import type { Job } from '../../shared/api/job';
import type { CallOptions, ListJobsQuery } from '../api/api-client';
import type { JobList } from '../../shared/api/job';

/** What is known about a job creation whose answer was lost. */
export interface CreationIntent {
  slug: string;
  fileName: string;
  /** When the creation was attempted (ISO 8601). */
  intentAt: string;
}

/** The part of the API client recovery needs. */
export interface JobLister {
  listJobs(query?: ListJobsQuery, options?: CallOptions): Promise<JobList>;
}

const EARLIEST_SKEW_MS = 2 * 60_000;
const LATEST_DELAY_MS = 15 * 60_000;

/**
 * Looks among the newest jobs for one created from this upload: a job whose `sceneFile` mentions the
 * slug, else the only job created around the intent's time whose `sceneFile` mentions the file name.
 * Null when no job matches with certainty.
 */
export async function findCreatedJob(client: JobLister, intent: CreationIntent, options: CallOptions = {}): Promise<Job | null> {
  const { jobs } = await client.listJobs({ page: 1, pageSize: 100 }, options);
  const bySlug = jobs.filter((job) => mentions(job.sceneFile, intent.slug) || mentions(job.requestedConfig, intent.slug));
  if (bySlug.length > 0) return bySlug.sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0]!;
  const at = Date.parse(intent.intentAt);
  const byTime = jobs.filter((job) => {
    const created = Date.parse(job.createdAt);
    return created >= at - EARLIEST_SKEW_MS && created <= at + LATEST_DELAY_MS && mentions(job.sceneFile, intent.fileName);
  });
  return byTime.length === 1 ? byTime[0]! : null;
}

function mentions(value: unknown, text: string): boolean {
  if (value === undefined || value === null || text === '') return false;
  return JSON.stringify(value).includes(JSON.stringify(text).slice(1, -1));
}
