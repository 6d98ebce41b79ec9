import { type ConnectionState, type AppEvent, matchesFilter, type JobSummary } from '../../shared/contract';

/** What the tray, the taskbar and the close policy look at. */
export interface ActivitySnapshot {
  /** Jobs validating, queued, rendering or finalizing, oldest first. */
  activeJobs: JobSummary[];
  /** Files still being packed or uploaded. */
  uploads: number;
  /** Jobs whose outputs are being downloaded. */
  downloads: number;
  connection: ConnectionState | null;
  autoDownload: boolean;
  /** The download folder (from the app state). */
  downloadDir: string | null;
  /** Renders that failed since the window was last looked at. */
  unseenFailures: number;
}

/**
 * The main process's view of what the app is doing, kept from the host's events: every job of the
 * active profile (latest summary), submissions uploading, downloads, the connection and a few
 * settings. Pure: no Electron, no timers.
 */
export class Activity {
  readonly #jobs = new Map<string, JobSummary>();
  readonly #uploading = new Set<string>();
  #connection: ConnectionState | null = null;
  #autoDownload = true;
  #downloadDir: string | null = null;
  #unseenFailures = 0;

  /** Takes one host event into account. */
  apply(event: AppEvent): void {
    switch (event.name) {
      case 'job.updated': {
        const before = this.#jobs.get(event.payload.id);
        if (before && before.status !== 'failed' && event.payload.status === 'failed') this.#unseenFailures++;
        this.#jobs.set(event.payload.id, event.payload);
        break;
      }
      case 'jobs.reset':
        this.#jobs.clear();
        break;
      case 'submission.updated':
        if (event.payload.phase === 'uploading' || event.payload.phase === 'packing') this.#uploading.add(event.payload.id);
        else this.#uploading.delete(event.payload.id);
        break;
      case 'submission.removed':
        this.#uploading.delete(event.payload.id);
        break;
      case 'connection.changed':
        this.#connection = event.payload;
        break;
      case 'app.changed':
        this.#connection = event.payload.connection;
        this.#autoDownload = event.payload.settings.autoDownload;
        this.#downloadDir = event.payload.settings.downloadDir;
        break;
      default:
        break;
    }
  }

  /** Adds jobs loaded by asking the host (after a reset), without counting them as changes. */
  seed(jobs: readonly JobSummary[]): void {
    for (const job of jobs) if (!this.#jobs.has(job.id)) this.#jobs.set(job.id, job);
  }

  /** The latest summary of a job. */
  job(id: string): JobSummary | undefined {
    return this.#jobs.get(id);
  }

  /** The person looked at the window: failures are no longer news. */
  markFailuresSeen(): void {
    this.#unseenFailures = 0;
  }

  snapshot(): ActivitySnapshot {
    const activeJobs = [...this.#jobs.values()].filter((j) => matchesFilter(j, 'active')).sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    let downloads = 0;
    for (const job of this.#jobs.values()) if (job.download.state === 'downloading' || job.download.state === 'queued') downloads++;
    return {
      activeJobs,
      uploads: this.#uploading.size,
      downloads,
      connection: this.#connection,
      autoDownload: this.#autoDownload,
      downloadDir: this.#downloadDir,
      unseenFailures: this.#unseenFailures,
    };
  }
}

/** Whether uploads, renders or downloads are under way (the window then hides to the tray). */
export function isWorkActive(snapshot: Pick<ActivitySnapshot, 'activeJobs' | 'uploads' | 'downloads'>): boolean {
  return snapshot.activeJobs.length > 0 || snapshot.uploads > 0 || snapshot.downloads > 0;
}
