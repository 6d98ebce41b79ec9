import type { CallOptions, ListJobsQuery } from '../../core/api';
import type { JobList } from '../../shared/api';
import { CommandFailedError, UsageError } from '../cli-errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PREFIX = /^[0-9a-f][0-9a-f-]{3,35}$/i;
const LOOKUP_SIZE = 100;

/** The part of the API client id lookup needs. */
export interface JobListSource {
  listJobs(query?: ListJobsQuery, options?: CallOptions): Promise<JobList>;
}

/**
 * A job id from what a person typed: a full id as is, or the first characters (at least 4) of one of
 * the newest 100 jobs' ids; a start no job id has is refused here, never sent as an id. Text that is
 * no id's start at all goes to the server unchanged, which answers for it.
 */
export async function resolveJobId(client: JobListSource, typed: string, options: CallOptions = {}): Promise<string> {
  const text = typed.trim();
  if (text === '') throw new UsageError('A job id is needed. List jobs with `renderdrop jobs`.');
  if (UUID.test(text) || !PREFIX.test(text)) return text;
  const { jobs } = await client.listJobs({ page: 1, pageSize: LOOKUP_SIZE }, options);
  const matches = jobs.filter((job) => job.id.toLowerCase().startsWith(text.toLowerCase()));
  if (matches.length > 1) {
    throw new UsageError(`"${text}" is the start of ${matches.length} job ids (${matches.slice(0, 3).map((j) => j.id).join(', ')}${matches.length > 3 ? ', ...' : ''}). Type more of the id.`);
  }
  const [match] = matches;
  if (!match) {
    throw new CommandFailedError(`No job starts with "${text}" among the ${LOOKUP_SIZE} newest jobs. Check the id with \`renderdrop jobs\`, or give the whole id of an older job.`);
  }
  return match.id;
}
