import { z } from 'zod';
import type { Db } from './db';
import { parseOptionalRow, parseRow } from './db-rows';

/** What the node keeps of a job's estimate: the sample render's measures, the estimate given before Start, the render time taken. */
export interface EstimateRecord {
  jobId: string;
  /** The sample render's measures as stored (JSON), checked by whoever reads them; null before one finished. */
  sample: unknown;
  given: { seconds: number; low: number; high: number } | null;
  tookSeconds: number | null;
  finishedAt: string | null;
}

const rowSchema = z.object({
  job_id: z.string(),
  sample: z.string().nullable(),
  given_seconds: z.number().nullable(),
  given_low: z.number().nullable(),
  given_high: z.number().nullable(),
  took_seconds: z.number().nullable(),
  finished_at: z.string().nullable(),
});

function fromRow(value: unknown): EstimateRecord {
  const r = parseRow('job_estimates', rowSchema, value);
  return {
    jobId: r.job_id,
    sample: r.sample === null ? null : JSON.parse(r.sample),
    given: r.given_seconds === null ? null : { seconds: r.given_seconds, low: r.given_low ?? r.given_seconds, high: r.given_high ?? r.given_seconds },
    tookSeconds: r.took_seconds,
    finishedAt: r.finished_at,
  };
}

/** The node's render estimates per job (table job_estimates). */
export class EstimatesRepo {
  constructor(private readonly db: Db) {}

  get(jobId: string): EstimateRecord | null {
    const row = parseOptionalRow('job_estimates', rowSchema, this.db.prepare('SELECT * FROM job_estimates WHERE job_id = ?').get(jobId));
    return row ? fromRow(row) : null;
  }

  /** Keeps a sample render's measures of a job (replacing earlier ones). */
  saveSample(jobId: string, sample: unknown): void {
    this.db
      .prepare('INSERT INTO job_estimates (job_id, sample) VALUES (?, ?) ON CONFLICT(job_id) DO UPDATE SET sample = excluded.sample')
      .run(jobId, JSON.stringify(sample));
  }

  /** Keeps the estimate given when the render started; the first one stays (a requeue does not replace it). */
  saveGiven(jobId: string, given: { seconds: number; low: number; high: number }): void {
    this.db
      .prepare(
        `INSERT INTO job_estimates (job_id, given_seconds, given_low, given_high) VALUES (?, ?, ?, ?)
         ON CONFLICT(job_id) DO UPDATE SET given_seconds = COALESCE(given_seconds, excluded.given_seconds),
           given_low = COALESCE(given_low, excluded.given_low), given_high = COALESCE(given_high, excluded.given_high)`,
      )
      .run(jobId, given.seconds, given.low, given.high);
  }

  /** Keeps the render time a finished job took. */
  saveTook(jobId: string, seconds: number, finishedAt: string): void {
    this.db
      .prepare('INSERT INTO job_estimates (job_id, took_seconds, finished_at) VALUES (?, ?, ?) ON CONFLICT(job_id) DO UPDATE SET took_seconds = excluded.took_seconds, finished_at = excluded.finished_at')
      .run(jobId, seconds, finishedAt);
  }

  /** When the latest frame of a job was written; null before its first. */
  latestFrameAt(jobId: string): string | null {
    const row = this.db.prepare('SELECT MAX(written_at) AS at FROM frames WHERE job_id = ?').get(jobId) as { at: string | null } | undefined;
    return row?.at ?? null;
  }

  /** Finished jobs that had an estimate before Start, oldest first. */
  finished(): EstimateRecord[] {
    return this.db
      .prepare('SELECT * FROM job_estimates WHERE given_seconds IS NOT NULL AND took_seconds IS NOT NULL ORDER BY finished_at')
      .all()
      .map(fromRow);
  }
}
