import type { Job, JobLog } from '../../shared/api';
import { ContractError, NotFoundError } from '../errors';
import type { ApiClient, CallOptions } from './api-client';

/** A job's log, or, from a server that keeps none, the job itself (for its failure reason). */
export type JobLogAnswer = { kind: 'log'; log: JobLog } | { kind: 'no-log'; job: Job };

/**
 * Read a job's log from byte `since`. A server without the log endpoint (a 404 for the route, or an
 * answer that is not a log) is told apart from an unknown job by asking for the job: an unknown job
 * throws the server's NotFoundError, a known one comes back as `no-log`.
 */
export async function readJobLog(client: Pick<ApiClient, 'getJobLog' | 'getJob'>, id: string, since = 0, options: CallOptions = {}): Promise<JobLogAnswer> {
  try {
    return { kind: 'log', log: await client.getJobLog(id, since, options) };
  } catch (error) {
    if (!(error instanceof NotFoundError) && !(error instanceof ContractError)) throw error;
    return { kind: 'no-log', job: await client.getJob(id, options) };
  }
}
