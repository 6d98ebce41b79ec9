import { type ApiClient, setWorkerBlock, updateJobSettings } from '../../../core/api';
import { ConfigError, InvalidStateError, NotFoundError } from '../../../core/errors';
import { isTerminalStatus, type NodeWorkers } from '../../../shared/api';
import type { FarmWorkersView, JobSummary } from '../../../shared/contract';
import type { ProfileJobs } from '../profile-jobs';

const NOT_A_NODE = 'This farm is not a Renderdrop node (or an older one): it has no worker list, priorities or worker tags. Its own tools show its workers.';

/**
 * A studio's farm on a Renderdrop node, for the active profile: a job's priority, the render workers
 * (with the queue's names of the jobs they render) and blocking a worker from a job or every job.
 * A farm without the node's extensions is told in words, never as a failed call.
 */
export class FarmStudio {
  readonly #client: ApiClient;
  readonly #jobs: ProfileJobs;
  readonly #now: () => number;
  /** Whether the farm answered its worker list (null until asked). */
  #isNode: boolean | null = null;

  constructor(deps: { client: ApiClient; jobs: ProfileJobs; now?: () => number }) {
    this.#client = deps.client;
    this.#jobs = deps.jobs;
    this.#now = deps.now ?? Date.now;
  }

  /** Changes a waiting or rendering job's priority; the queue takes the job the node answers. */
  async setPriority(jobId: string, priority: number): Promise<JobSummary> {
    try {
      return this.#jobs.put(await updateJobSettings(this.#client, jobId, { priority }));
    } catch (error) {
      if (error instanceof InvalidStateError) {
        const job = await this.#client.getJob(jobId).catch(() => null);
        if (job && isTerminalStatus(job.status)) {
          this.#jobs.put(job);
          throw new InvalidStateError(`This job has already ${job.status === 'completed' ? 'completed' : `been ${job.status}`}; its priority no longer changes anything.`, { code: 'job_ended' });
        }
      }
      if (error instanceof NotFoundError && !(await this.#answersWorkers())) throw new ConfigError(NOT_A_NODE.replace(/ Its own tools.*$/, ''), { code: 'not-a-renderdrop-node' });
      throw error;
    }
  }

  /** The farm's render workers, or why there is no list. */
  async workers(): Promise<FarmWorkersView> {
    try {
      return this.#view(await this.#client.getNodeWorkers({ retry: { transientRetries: 0 } }));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      this.#isNode = false;
      return { supported: false, message: NOT_A_NODE };
    }
  }

  /** Blocks (or unblocks) a worker for one job or every job; answers the list as it is then. */
  async block(worker: string, jobId: string | undefined, block: boolean): Promise<FarmWorkersView> {
    try {
      return this.#view(await setWorkerBlock(this.#client, block, { worker, ...(jobId !== undefined ? { jobId } : {}) }));
    } catch (error) {
      if (error instanceof NotFoundError && !(await this.#answersWorkers())) return { supported: false, message: NOT_A_NODE };
      throw error;
    }
  }

  async #answersWorkers(): Promise<boolean> {
    if (this.#isNode !== null) return this.#isNode;
    this.#isNode = await this.#client.getNodeWorkers().then(
      () => true,
      (error: unknown) => !(error instanceof NotFoundError),
    );
    return this.#isNode;
  }

  #view(view: NodeWorkers): FarmWorkersView {
    this.#isNode = true;
    const ids = view.mode === 'distributed' ? [...view.workers.flatMap((w) => (w.current ? [w.current.jobId] : [])), ...(view.blocks ?? []).flatMap((b) => (b.jobId ? [b.jobId] : []))] : [];
    const jobNames: Record<string, string> = {};
    for (const id of ids) {
      const name = this.#jobs.queue.get(id)?.fileName;
      if (name !== undefined) jobNames[id] = name;
    }
    return { supported: true, view, jobNames, readAt: new Date(this.#now()).toISOString() };
  }
}
