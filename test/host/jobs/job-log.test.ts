import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api';
import { NotFoundError } from '../../../src/core/errors';
import { JobLogReader } from '../../../src/host/jobs/job-log';
import type { Job, JobLog } from '../../../src/shared/api';

const ID = '0b8f6f4e-1a2b-4c3d-8e9f-001122334455';
const job = (extra: Partial<Job>): Job => ({ id: ID, status: 'failed', workspaceId: 'ws', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', ...extra }) as Job;

/** An API client whose log and job answers are given. */
function client(answers: { log: () => Promise<JobLog>; job: () => Promise<Job> }): ApiClient {
  const fake = Object.create(ApiClient.prototype) as ApiClient;
  return Object.assign(fake, { getJobLog: answers.log, getJob: answers.job });
}
const notFound = () => Promise.reject(new NotFoundError('Job was not found on the server (404).', { status: 404 }));

describe("the Log tab's reader", () => {
  it("passes a node's log on", async () => {
    const log: JobLog = { jobId: ID, text: 'Fra:1\n', offset: 0, nextOffset: 6, cutBytes: 0 };
    const reader = new JobLogReader({ client: client({ log: async () => log, job: () => Promise.reject(new Error('not asked')) }) });
    expect(await reader.read(ID)).toEqual({ kind: 'log', text: 'Fra:1\n', offset: 0, nextOffset: 6, cutBytes: 0 });
  });

  it("answers the job's failure in plain words from a farm that keeps no log", async () => {
    const failed = job({ failedReason: { name: 'OutOfMemory', type: 'render', message: 'error: the render ran out of memory' } });
    const reader = new JobLogReader({ client: client({ log: notFound, job: async () => failed }) });
    expect(await reader.read(ID)).toEqual({ kind: 'none', failure: 'the render ran out of memory.' });
    const done = new JobLogReader({ client: client({ log: notFound, job: async () => job({ status: 'completed' }) }) });
    expect(await done.read(ID)).toEqual({ kind: 'none', failure: null });
  });

  it('lets an unknown job fail as the server said', async () => {
    const reader = new JobLogReader({ client: client({ log: notFound, job: notFound }) });
    await expect(reader.read(ID)).rejects.toBeInstanceOf(NotFoundError);
  });
});
