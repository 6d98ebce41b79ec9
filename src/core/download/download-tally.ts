import { ProgressMeter } from '../transfer';
import type { Clock } from '../util';

/** Progress of one job's download. */
export interface DownloadProgress {
  jobId: string;
  filesDone: number;
  filesSkipped: number;
  filesTotal: number;
  bytes: number;
  /** Sum of the sizes known so far (grows as files start). */
  bytesKnown: number;
  rate: number;
  done: boolean;
}

/** What a tally needs. */
export interface DownloadTallyOptions {
  jobId: string;
  filesTotal: number;
  clock: Clock;
  progressIntervalMs: number;
  onProgress?: (progress: DownloadProgress) => void;
}

/**
 * Counts a job's download as its files progress (bytes, finished and skipped files, the sizes known
 * so far) and reports it, throttled while bytes flow and at once when a file or the job is done.
 */
export class DownloadTally {
  readonly #options: DownloadTallyOptions;
  readonly #meter: ProgressMeter;
  readonly #sizes = new Map<string, number>();
  #bytesKnown = 0;
  #filesDone = 0;
  #filesSkipped = 0;

  constructor(options: DownloadTallyOptions) {
    this.#options = options;
    this.#meter = new ProgressMeter({ clock: options.clock, total: null, intervalMs: options.progressIntervalMs });
  }

  /** Counts bytes received (negative when a partial file is dropped). */
  readonly addBytes = (count: number): void => {
    if (this.#meter.add(count)) this.#options.onProgress?.(this.#snapshot(false));
  };

  /** Records (or corrects) the size of the output at `relativePath`. */
  knowSize(relativePath: string, size: number): void {
    this.#bytesKnown += size - (this.#sizes.get(relativePath) ?? 0);
    this.#sizes.set(relativePath, size);
  }

  /** Counts a file that is in place, downloaded or found complete already. */
  fileDone(relativePath: string, bytes: number, skipped: boolean): void {
    if (skipped) this.#filesSkipped++;
    this.knowSize(relativePath, bytes);
    this.#filesDone++;
    this.#options.onProgress?.(this.#snapshot(false));
  }

  /** Reports the final progress of the job. */
  finish(): void {
    this.#options.onProgress?.(this.#snapshot(true));
  }

  #snapshot(done: boolean): DownloadProgress {
    const p = done ? this.#meter.finish() : this.#meter.peek();
    return {
      jobId: this.#options.jobId,
      filesDone: this.#filesDone,
      filesSkipped: this.#filesSkipped,
      bytesKnown: this.#bytesKnown,
      filesTotal: this.#options.filesTotal,
      bytes: p.bytes,
      rate: p.rate,
      done,
    };
  }
}
