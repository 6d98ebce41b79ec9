import { readJobLog, type ApiClient } from '../../core/api';
import type { JobLogView } from '../../shared/contract';
import { describeFailure } from './job-summary';

/**
 * A job's log for the details' Log tab: the node's log from a byte on, or, from a farm that keeps
 * none, the job's failure in plain words.
 */
export class JobLogReader {
  readonly #client: ApiClient;

  constructor(deps: { client: ApiClient }) {
    this.#client = deps.client;
  }

  /** The log from byte `since` (0: all of it). Unknown jobs throw the server's NotFoundError. */
  async read(jobId: string, since = 0): Promise<JobLogView> {
    const answer = await readJobLog(this.#client, jobId, since);
    if (answer.kind === 'log') {
      const { text, offset, nextOffset, cutBytes } = answer.log;
      return { kind: 'log', text, offset, nextOffset, cutBytes };
    }
    return { kind: 'none', failure: describeFailure(answer.job.failedReason) };
  }
}
