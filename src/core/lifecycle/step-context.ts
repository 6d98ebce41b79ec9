import type { Downloads, Job, JobFrames, JobList, NodeWorkers, ProgressRecord, RenderConfig, FileType, UploadTarget } from '../../shared/api';
import type { CallOptions, ListJobsQuery, RenderResponse } from '../api';
import type { DownloadJobOptions, DownloadJobResult } from '../download';
import type { SubmissionJournal, SubmissionPatch, SubmissionRecord } from '../journal';
import type { UploadOptions, UploadResult } from '../upload';
import type { Clock } from '../util';
import type { SubmissionEvents } from './lifecycle-events';
import type { WaitForJob } from './wait-for-job';

/** The API operations a submission uses. */
export interface SubmissionClient {
  createUpload(request: { fileName: string; fileType: FileType }, options?: CallOptions): Promise<UploadTarget>;
  createJob(slug: string, options?: CallOptions): Promise<Job>;
  listJobs(query?: ListJobsQuery, options?: CallOptions): Promise<JobList>;
  getJob(jobId: string, options?: CallOptions): Promise<Job>;
  getProgress(jobId: string, options?: CallOptions): Promise<ProgressRecord>;
  validateJob(jobId: string, body?: Record<string, unknown>, options?: CallOptions): Promise<Job>;
  renderJob(jobId: string, config: RenderConfig, options?: CallOptions): Promise<RenderResponse>;
  getDownloads(jobId: string, options?: CallOptions): Promise<Downloads>;
  /** The frames a Renderdrop node has rendered for a job so far (an extension; other servers answer 404). */
  getJobFrames?(jobId: string, options?: CallOptions): Promise<JobFrames>;
  /** A Renderdrop node's render workers and Blender versions (an extension; other servers answer 404). */
  getNodeWorkers?(options?: CallOptions): Promise<NodeWorkers>;
}

/** What every step function works with: the server, the journal, and how to report. */
export interface StepContext {
  readonly client: SubmissionClient;
  readonly journal: SubmissionJournal;
  readonly clock: Clock;
  readonly wait: WaitForJob;
  /** Aborts the step (the record stays where its last saved step put it). */
  readonly signal: AbortSignal | undefined;
  /** `{ signal }` for API calls. */
  readonly call: CallOptions;
  /** The settings the go-ahead to render came with (else the recorded ones, else the default). */
  readonly renderConfig: RenderConfig | undefined;
  /** Root under which `<scene>-<short id>/` is created when the record names no folder. */
  readonly downloadRoot: string | undefined;
  readonly downloadConcurrency: number | undefined;
  /** Whether a farm that takes chunked uploads is sent only the chunks it lacks (else the whole file). */
  readonly chunked: boolean;
  readonly upload: (options: UploadOptions) => Promise<UploadResult>;
  readonly download: (options: DownloadJobOptions) => Promise<DownloadJobResult>;
  /** The record as last saved. */
  record(): SubmissionRecord;
  /** Writes `patch` to the journal (reporting a new step or ending) and returns the record. */
  save(patch: SubmissionPatch): Promise<SubmissionRecord>;
  emit<K extends keyof SubmissionEvents>(event: K, payload: SubmissionEvents[K]): void;
  /** The record's ISO time now. */
  now(): string;
}

/**
 * One state's work: takes the record from its step to the next one (or to an ending), saving each
 * step to the journal before the work that follows it.
 */
export type StepFunction = (ctx: StepContext) => Promise<void>;
