import type { Job, JobList } from '../../../shared/api';
import { isPlainRecord } from '../../../shared/plain-record';
import type { CallOptions, ListJobsQuery } from '../../api';

/** What is known about a job creation whose answer was lost. */
export interface CreationIntent {
  slug: string;
  fileName: string;
  /** When the creation was attempted (ISO 8601). */
  intentAt: string;
  /** Jobs other submissions already own (named by other journal records); never this one's. */
  ownedElsewhere?: ReadonlySet<string>;
  /**
   * Whether another submission of a file with this name may also have created a job nobody
   * recorded, so a job recognised only by name and time could be its.
   */
  rivalMayOwn?: boolean;
}

/** The part of the API client recovery needs. */
export interface JobLister {
  listJobs(query?: ListJobsQuery, options?: CallOptions): Promise<JobList>;
}

/**
 * How recovery went: `found` is this submission's job (`by` the slug, which is certain, or by name
 * and time with no other submission that could own it); `none` means no job was created;
 * `ambiguous` lists jobs that may be this submission's, which must not be adopted silently.
 */
export type CreatedJobSearch = { kind: 'found'; job: Job; by: 'slug' | 'name-and-time' } | { kind: 'none' } | { kind: 'ambiguous'; jobs: Job[] };

const EARLIEST_SKEW_MS = 2 * 60_000;
const LATEST_DELAY_MS = 15 * 60_000;

/**
 * Looks among the newest jobs, leaving out those other submissions own, for one created from this
 * upload: a job whose `sceneFile` mentions the slug, else a job created around the intent's time
 * whose `sceneFile` mentions the file name (and names no other upload's slug).
 */
export async function findCreatedJob(client: JobLister, intent: CreationIntent, options: CallOptions = {}): Promise<CreatedJobSearch> {
  const { jobs } = await client.listJobs({ page: 1, pageSize: 100 }, options);
  const unowned = jobs.filter((job) => !intent.ownedElsewhere?.has(job.id));
  const bySlug = unowned.filter((job) => mentions(job.sceneFile, intent.slug) || mentions(job.requestedConfig, intent.slug));
  if (bySlug.length > 0) return { kind: 'found', job: bySlug.sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0]!, by: 'slug' };
  const at = Date.parse(intent.intentAt);
  const byTime = unowned.filter((job) => {
    const created = Date.parse(job.createdAt);
    return created >= at - EARLIEST_SKEW_MS && created <= at + LATEST_DELAY_MS && mentions(job.sceneFile, intent.fileName) && !namesOtherSlug(job.sceneFile, intent.slug);
  });
  if (byTime.length === 0) return { kind: 'none' };
  if (byTime.length === 1 && !intent.rivalMayOwn) return { kind: 'found', job: byTime[0]!, by: 'name-and-time' };
  return { kind: 'ambiguous', jobs: byTime.sort((a, b) => a.createdAt.localeCompare(b.createdAt)) };
}

function mentions(value: unknown, text: string): boolean {
  if (value === undefined || value === null || text === '') return false;
  return JSON.stringify(value).includes(JSON.stringify(text).slice(1, -1));
}

function namesOtherSlug(sceneFile: unknown, slug: string): boolean {
  if (!isPlainRecord(sceneFile)) return false;
  const named = sceneFile.slug;
  return typeof named === 'string' && named !== '' && named !== slug;
}
