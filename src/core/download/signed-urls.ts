import { TransferError } from '../errors';
import type { PlannedOutput } from './output-plan';

/** How to get fresh download URLs for a job. */
export interface UrlSource {
  jobId: string;
  /** Fresh `/downloads` URLs, planned as files. */
  fetchPlan: () => Promise<PlannedOutput[]>;
  /** Fresh lists allowed after signed URLs expired. */
  maxRefreshes: number;
}

/**
 * The current signed URL of each output of a job. When one expires, every file that saw it asks for
 * a refresh, but only the first asks the server: the others wait for the same fresh list. Each fresh
 * list starts a new generation, so a file that failed with an older URL just tries again.
 */
export class SignedUrls {
  readonly #source: UrlSource;
  readonly #urls: Map<string, string>;
  #generation = 0;
  #refreshes = 0;
  #refreshing: Promise<void> | null = null;

  constructor(plan: readonly PlannedOutput[], source: UrlSource) {
    this.#source = source;
    this.#urls = new Map(plan.map((p) => [p.relativePath, p.url]));
  }

  /** Which list of URLs is current; pass it to {@link refresh} after a URL of that list expired. */
  get generation(): number {
    return this.#generation;
  }

  /** The current URL of the output at `relativePath`. */
  urlOf(relativePath: string): string {
    return this.#urls.get(relativePath)!;
  }

  /** Gets fresh URLs unless a list newer than `seen` is already there; throws once refreshes run out. */
  async refresh(seen: number): Promise<void> {
    if (seen !== this.#generation) return;
    this.#refreshing ??= this.#fetchFresh().finally(() => {
      this.#refreshing = null;
    });
    await this.#refreshing;
  }

  async #fetchFresh(): Promise<void> {
    if (++this.#refreshes > this.#source.maxRefreshes) {
      throw new TransferError(`The download links of job ${this.#source.jobId} keep expiring. Check the computer's clock and try again.`, { code: 'url-expired' });
    }
    for (const fresh of await this.#source.fetchPlan()) this.#urls.set(fresh.relativePath, fresh.url);
    this.#generation++;
  }
}
