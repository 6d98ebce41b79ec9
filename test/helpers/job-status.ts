import type { JobStatus } from '../../src/shared/api';
import type { Db } from '../../src/render-node/store/db';
import type { JobPatch, JobRecord, JobsRepo } from '../../src/render-node/store/jobs-repo';

/**
 * Put a job straight into `status` with `patch` applied, bypassing the node's state machine: a
 * fixture for tests and benchmarks that need a job in a given state without running the work that
 * leads there. The move is recorded in the job's timeline like any other.
 */
export function putJobInStatus(node: { db: Db; jobs: JobsRepo }, id: string, status: JobStatus, patch: JobPatch = {}): JobRecord {
  const at = new Date().toISOString();
  node.db.prepare('UPDATE jobs SET status = ?, updated_at = ? WHERE id = ?').run(status, at, id);
  node.db.prepare('INSERT INTO job_events (job_id, at, status, detail) VALUES (?, ?, ?, NULL)').run(id, at, status);
  node.jobs.patch(id, patch);
  const job = node.jobs.get(id);
  if (!job) throw new Error(`no job ${id}`);
  return job;
}
