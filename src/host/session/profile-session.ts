import { countOf } from '../../shared/text';
import type { RequeueRequest } from '../../shared/api';
import { describeFrames } from '../../shared/render';
import { requeueOrResend } from '../../core/verify';
import type { ApiClient } from '../../core/api';
import { ConfigError } from '../../core/errors';
import { JobTracker } from '../../core/tracking';
import type { Profile } from '../../shared/settings';
import { type ConnectionState, type SyncView, type JobPage, type JobQuery, type JobSummary, type RequeueView, type SubmissionView, failedStepTitle } from '../../shared/contract';
import type { ConnectionService } from '../profiles';
import { HostSubmissions } from '../submissions';
import { FarmStudio, JobDetails, JobDownloads, JobFolderRepair, JobFrameStrip, JobLogReader, JobSync, ProfileJobs, SubmittedJobs, withFrameCounts } from '../jobs';
import { notifier, type Notify, type SessionEnvironment } from '../environment';

/** What a session needs from the host. */
export interface SessionDeps extends SessionEnvironment {
  profile: Profile;
  /** Null when the profile cannot be used; its connection then says why. */
  client: ApiClient | null;
  connection: ConnectionService;
  notifications: () => boolean;
  tracker?: { activeIntervalMs?: number; idleIntervalMs?: number };
  /** Rhythm of the list sync (defaults: 5 s while a job is active, 8 s when idle). */
  sync?: { activeIntervalMs?: number; idleIntervalMs?: number };
}

/** The services of a profile whose server can be used. */
export interface SessionServices {
  jobs: ProfileJobs;
  /** The frames of a job for the detail panel's frame strip and viewer. */
  frameStrip: JobFrameStrip;
  submissions: HostSubmissions;
  downloads: JobDownloads;
  details: JobDetails;
  frames: JobFolderRepair;
  /** What Blender printed for a job, for the details' Log tab. */
  logs: JobLogReader;
  /** A Renderdrop node's priorities and render workers. */
  studio: FarmStudio;
}

/**
 * Everything bound to the active profile: its job list (kept current by one tracker), submissions,
 * downloads, job details, connection state and notifications, each a service of its own. A profile
 * switch closes the session and opens another.
 */
export class ProfileSession {
  readonly profile: Profile;
  readonly #deps: SessionDeps;
  readonly #services: SessionServices | null;
  readonly #tracker: JobTracker | null;
  readonly #sync: JobSync | null;
  readonly #submitted = new SubmittedJobs();
  readonly #notify: Notify;
  #loaded: Promise<void> = Promise.resolve();

  constructor(deps: SessionDeps) {
    this.#deps = deps;
    this.profile = deps.profile;
    this.#notify = notifier(deps.events, deps.clock, deps.notifications);
    const client = deps.client;
    if (!client) {
      this.#services = null;
      this.#tracker = null;
      this.#sync = null;
      return;
    }
    this.#tracker = this.#makeTracker(client);
    const jobs = new ProfileJobs({ client, profileId: deps.profile.id, events: deps.events, connection: deps.connection, submitted: this.#submitted, tracker: this.#tracker, ...(deps.hiddenJobs ? { hidden: deps.hiddenJobs } : {}) });
    this.#sync = new JobSync({ client, jobs, tracker: this.#tracker, events: deps.events, clock: deps.clock, ...deps.sync });
    const downloads = new JobDownloads({ client, jobs, submitted: this.#submitted, events: deps.events, downloadRoot: deps.downloadRoot });
    const submissions = new HostSubmissions({ ...deps, profileId: deps.profile.id, client, tracker: this.#tracker, jobs, downloads, submitted: this.#submitted });
    this.#services = {
      jobs,
      frameStrip: new JobFrameStrip({ client, downloads }),
      logs: new JobLogReader({ client }),
      studio: new FarmStudio({ client, jobs, now: () => deps.clock.now() }),
      downloads,
      details: new JobDetails({ client, jobs, downloads, submitted: this.#submitted, isStaged: deps.isStaged }),
      submissions,
      frames: new JobFolderRepair({ client, journal: deps.journal, downloads, submitted: this.#submitted, start: (record) => submissions.startRecorded(record), isStaged: deps.isStaged }),
    };
  }

  get connection(): ConnectionState {
    return this.#deps.connection.state;
  }

  /** How many jobs the queue holds. */
  get jobCount(): number {
    return this.#services?.jobs.queue.size ?? 0;
  }

  /** The profile's services; a ConfigError saying why when its server cannot be used. */
  services(): SessionServices {
    if (this.#services) return this.#services;
    const blocked = this.#deps.connection.state;
    throw new ConfigError('message' in blocked ? blocked.message : 'This profile cannot be used yet.', { code: blocked.state });
  }

  /** Loads the journal and the job list, deletes bundles no submission needs, and resumes unfinished submissions. */
  async start(): Promise<void> {
    await this.#deps.journal.sweepBundles();
    const records = (await this.#deps.journal.list()).filter((r) => r.profileId === this.profile.id);
    for (const record of records) this.#submitted.remember(record);
    if (!this.#services) return;
    this.#loaded = this.#services.jobs.load().then(() => this.#sync?.start());
    this.#services.submissions.resume(records);
  }

  /** Resolves once the first job list load finished (or failed). */
  whenLoaded(): Promise<void> {
    return this.#loaded;
  }

  /** One page of the queue (empty when the profile cannot be used). */
  jobs(query: JobQuery): JobPage {
    return this.#services?.jobs.page(query) ?? { jobs: [], total: 0, counts: { all: 0, active: 0, review: 0, completed: 0, failed: 0, canceled: 0 }, profileId: this.profile.id };
  }

  /** Lists every job again from the server. */
  async reload(): Promise<JobPage> {
    await this.services().jobs.load();
    return this.jobs({});
  }

  /** Checks the queue against the server now; how current it is. */
  async sync(): Promise<SyncView> {
    if (this.#sync) return this.#sync.now();
    const blocked = this.#deps.connection.state;
    return { lastSyncAt: null, syncing: false, nextInMs: 0, error: 'message' in blocked ? blocked.message : 'This profile cannot be used yet.' };
  }

  /** Submissions of this session. */
  submissions(): SubmissionView[] {
    return this.#services?.submissions.list() ?? [];
  }

  /** Cancels a job: one waiting at review is discarded (nothing is rendered), any other is canceled on the server. */
  async cancel(jobId: string): Promise<JobSummary> {
    const { submissions, jobs } = this.services();
    const client = this.#deps.client!;
    const atReview = submissions.awaitingReview(jobId);
    if (atReview) await submissions.discard(atReview);
    else await client.cancelJob(jobId);
    const summary = jobs.put(await client.getJob(jobId));
    void this.#tracker?.refresh(jobId);
    return summary;
  }

  /** Changes a job's priority on a Renderdrop node, and reads it again soon. */
  async setPriority(jobId: string, priority: number): Promise<JobSummary> {
    const summary = await this.services().studio.setPriority(jobId, priority);
    void this.#tracker?.refresh(jobId);
    return summary;
  }

  /**
   * Renders frames of a job that ended again: inside the job on a Renderdrop node, else as a new job of
   * those frames from the scene it was sent from (refused, in words, when that scene is gone).
   */
  async requeue(jobId: string, request: RequeueRequest): Promise<RequeueView> {
    const { submissions, jobs } = this.services();
    const outcome = await requeueOrResend({ client: this.#deps.client!, journal: this.#deps.journal, jobId, request });
    if (outcome.kind === 'resend') return { inJob: false, frames: describeFrames(outcome.frames), sent: submissions.startRecorded(outcome.record) };
    const job = jobs.put(outcome.job);
    // Followed again like any job at work, so it is downloaded again when it completes.
    this.#tracker?.watch(jobId, outcome.job);
    return { inJob: true, frames: outcome.said.replace(/^requeued frames? /, ''), job };
  }

  /** Stops every run, download and timer; journal records stay resumable. */
  async close(): Promise<void> {
    this.#deps.connection.close();
    this.#sync?.close();
    this.#tracker?.stop();
    if (!this.#services) return;
    this.#services.jobs.close();
    this.#services.submissions.close();
    this.#services.downloads.close();
  }

  #makeTracker(client: ApiClient): JobTracker {
    const connection = this.#deps.connection;
    const tracker = new JobTracker({
      client: {
        getAllProgress: async (options) => {
          const records = await client.getAllProgress(options);
          connection.answered();
          return records;
        },
        getJob: (id, options) => client.getJob(id, options),
      },
      clock: this.#deps.clock,
      activeIntervalMs: this.#deps.tracker?.activeIntervalMs ?? 1_000,
      idleIntervalMs: this.#deps.tracker?.idleIntervalMs ?? 15_000,
    });
    tracker.on('job', ({ job }) => this.#services?.jobs.put(job));
    tracker.on('progress', ({ jobId, completedFrames, totalFrames }) => {
      this.#services?.jobs.queue.patch(jobId, (s) => withFrameCounts(s, { completedFrames, totalFrames }, this.#deps.clock.now()));
      const services = this.#services;
      if (services && completedFrames > 0 && this.#deps.autoDownload() && !services.submissions.isDriving(jobId)) services.downloads.followRendering(jobId);
    });
    tracker.on('completed', ({ job }) => {
      const summary = this.#services?.jobs.queue.get(job.id);
      this.#notify('success', 'Render complete', `${summary?.fileName ?? job.id}: ${countOf(summary?.totalFrames ?? 0, 'frame')} rendered.`, job.id);
      const services = this.#services;
      if (services && !services.submissions.isDriving(job.id) && this.#deps.autoDownload()) void services.downloads.download(job.id).catch(() => undefined);
    });
    tracker.on('failed', ({ job }) => this.#frameFollowEnded(job.id));
    tracker.on('canceled', ({ job }) => this.#frameFollowEnded(job.id));
    tracker.on('failed', ({ job }) => {
      const summary = this.#services?.jobs.queue.get(job.id);
      this.#notify('error', failedStepTitle(summary?.failedStep ?? 'render'), `${summary?.fileName ?? job.id}: ${summary?.failure ?? 'The farm gave no reason.'}`, job.id);
    });
    tracker.on('error', ({ error, retryInMs, jobId }) => {
      if (jobId === undefined) connection.failed(error, retryInMs);
    });
    return tracker;
  }

  /** A job whose frames the automatic download brought in ended without completing: they are what it keeps. */
  #frameFollowEnded(jobId: string): void {
    const downloads = this.#services?.downloads;
    if (downloads) void downloads.stopFollowing(jobId).then(() => downloads.followEnded(jobId));
  }
}
