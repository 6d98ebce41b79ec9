import type { Job, JobStatus, ProgressRecord } from '../../src/shared/api/job';
import { NotFoundError } from '../../src/core/errors';

/** A job inside the fake farm: renders `total` frames, one per progress poll once rendering. */
export interface FarmJob {
  job: Job;
  completed: number;
  total: number;
}

/**
 * An in-memory render farm behind the tracker's and waiters' client interface. Every progress poll
 * advances rendering jobs by one frame and moves finished ones to finalizing, then completed.
 */
export class FakeFarm {
  readonly jobs = new Map<string, FarmJob>();
  calls = { progress: 0, job: 0 };
  failNextProgress: unknown[] = [];

  add(id: string, status: JobStatus, total = 3): Job {
    const job: Job = { id, status, workspaceId: 'w', createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z' };
    this.jobs.set(id, { job, completed: 0, total });
    return job;
  }

  setStatus(id: string, status: JobStatus): void {
    const entry = this.jobs.get(id)!;
    entry.job = { ...entry.job, status };
  }

  async getAllProgress(): Promise<ProgressRecord[]> {
    this.calls.progress++;
    const failure = this.failNextProgress.shift();
    if (failure) throw failure;
    const out: ProgressRecord[] = [];
    for (const entry of this.jobs.values()) {
      if (entry.job.status === 'finalizing') entry.job = { ...entry.job, status: 'completed' };
      if (entry.job.status === 'rendering') {
        entry.completed = Math.min(entry.total, entry.completed + 1);
        out.push({ jobId: entry.job.id, completedFrames: entry.completed, totalFrames: entry.total });
        if (entry.completed === entry.total) entry.job = { ...entry.job, status: 'finalizing' };
      }
    }
    return out;
  }

  async getJob(id: string): Promise<Job> {
    this.calls.job++;
    const entry = this.jobs.get(id);
    if (!entry) throw new NotFoundError(`Job ${id} was not found on the server (404).`, { status: 404 });
    return entry.job;
  }

  async getProgress(id: string): Promise<ProgressRecord> {
    const entry = this.jobs.get(id)!;
    return { jobId: id, completedFrames: entry.completed, totalFrames: entry.total };
  }
}
