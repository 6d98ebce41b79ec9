import { type JobQuery, type JobPage, queryJobs, type JobSummary } from '../../shared/contract';

/** The jobs of the active profile as the queue shows them, keyed by id. */
export class JobQueue {
  readonly #jobs = new Map<string, JobSummary>();
  readonly #onChange: (summary: JobSummary) => void;
  readonly #isHidden: (id: string) => boolean;

  /** `isHidden` names the jobs removed from the list: kept here, never listed or announced. */
  constructor(onChange: (summary: JobSummary) => void, isHidden: (id: string) => boolean = () => false) {
    this.#onChange = onChange;
    this.#isHidden = isHidden;
  }

  get size(): number {
    return this.#jobs.size;
  }

  get(id: string): JobSummary | null {
    return this.#jobs.get(id) ?? null;
  }

  /** Whether any job satisfies `test`. */
  some(test: (summary: JobSummary) => boolean): boolean {
    for (const summary of this.#jobs.values()) if (test(summary)) return true;
    return false;
  }

  /** Replaces every job at once (no change events: the caller announces a reset). */
  replaceAll(jobs: readonly JobSummary[]): void {
    this.#jobs.clear();
    for (const job of jobs) this.#jobs.set(job.id, job);
  }

  /** Adds or replaces a job; tells the listener when anything changed. */
  put(summary: JobSummary): void {
    const before = this.#jobs.get(summary.id);
    this.#jobs.set(summary.id, summary);
    if (this.#isHidden(summary.id)) return;
    if (!before || JSON.stringify(before) !== JSON.stringify(summary)) this.#onChange(summary);
  }

  /** Changes part of a known job. */
  patch(id: string, change: (summary: JobSummary) => JobSummary): JobSummary | null {
    const before = this.#jobs.get(id);
    if (!before) return null;
    const after = change(before);
    this.put(after);
    return after;
  }

  /** One page of the queue, newest first, with counts per filter. */
  page(query: JobQuery, profileId: string | null): JobPage {
    const shown = [...this.#jobs.values()].filter((job) => !this.#isHidden(job.id));
    const { jobs, counts } = queryJobs(shown, query);
    const offset = query.offset ?? 0;
    const slice = query.limit === undefined ? jobs.slice(offset) : jobs.slice(offset, offset + query.limit);
    return { jobs: slice, total: jobs.length, counts, profileId };
  }
}
