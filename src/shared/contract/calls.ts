import { z } from 'zod';
import { type NodeWorkers, prioritySchema, type RenderConfig, renderConfigSchema } from '../api';
import type { FarmWorkersView } from './worker-views';
import { type AppState, type ConnectionTest, type DoctorView, KEY_PLACES, type ProfileView, type SettingsView, THEMES } from './app-state';
import type { SyncView } from './events';
import { type JobCounts, type JobDetail, type JobRemoval, type JobSummary, JOB_FILTERS } from './job-views';
import type { ReviewSheet, SubmissionView, SubmitFileResult } from './submission-views';
import type { FolderCheckView, RequeueView } from './frame-views';
import type { FrameImage, FrameStripView } from './frame-strip-views';
import type { FolderView } from './file-views';
import type { AddonView, BlenderAddonView } from './addon-views';
import { MAX_FRAME } from '../frame-ranges';
import { jobLogRequestSchema, type JobLogView } from './job-log-views';

/** A call: the schema its request must pass, and (as a type only) what it answers. */
export interface CallSpec<S extends z.ZodType, R> {
  readonly request: S;
  /** Never set: carries the response type. */
  readonly response?: R;
}

const returns =
  <R>() =>
  <S extends z.ZodType>(request: S): CallSpec<S, R> => ({ request });

const none = z.object({}).strict();
const id = z.string().min(1).max(200);
const byJob = z.object({ jobId: id }).strict();
const bySubmission = z.object({ submissionId: id }).strict();
const byProfile = z.object({ profileId: id }).strict();
const byFrame = z.object({ jobId: id, frame: z.number().int().min(0).max(MAX_FRAME) }).strict();
const apiKey = z.string().trim().min(8, 'An API key is at least 8 characters.').max(4096);
const baseUrl = z
  .string()
  .trim()
  .url('Enter the server address, e.g. https://farm.example.com.')
  .refine((u) => /^https?:\/\//i.test(u), 'The address must start with http:// or https://.');

/**
 * A file to submit: a path on the host's computer (desktop app, tests), or the token the browser-mode
 * upload endpoint answered for a dropped file.
 */
export const submitFileSchema = z.union([
  z.object({ path: z.string().min(1).max(4096) }).strict(),
  z.object({ token: id }).strict(),
]);
export type SubmitFile = z.infer<typeof submitFileSchema>;

/** Query of the job queue; every part is optional. */
export const jobQuerySchema = z
  .object({
    filter: z.enum(JOB_FILTERS).optional(),
    search: z.string().max(200).optional(),
    offset: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(20_000).optional(),
  })
  .strict();
export type JobQuery = z.infer<typeof jobQuerySchema>;

/** One page of the queue, newest first, with the counts of every filter (search applied). */
export interface JobPage {
  jobs: JobSummary[];
  /** Jobs matching the query before offset/limit. */
  total: number;
  counts: JobCounts;
  /** The profile these jobs belong to. */
  profileId: string | null;
}

/**
 * Every call the UI can make: name, request schema, response type. Each transport (IPC, HTTP) checks
 * the payload with the same schema before the host sees it.
 */
export const CALLS = {
  'app.getState': returns<AppState>()(none),
  'app.runDoctor': returns<DoctorView>()(none),
  /** The render workers of "This computer"'s node (null when it does not run). */
  'app.renderWorkers': returns<NodeWorkers | null>()(none),

  'profiles.add': returns<ProfileView>()(
    z.object({ name: z.string().trim().min(1).max(100), baseUrl, apiKey: apiKey.optional(), keyPlace: z.enum(KEY_PLACES).optional() }).strict(),
  ),
  'profiles.update': returns<ProfileView>()(z.object({ profileId: id, name: z.string().trim().min(1).max(100).optional(), baseUrl: baseUrl.optional() }).strict()),
  'profiles.remove': returns<AppState>()(byProfile),
  'profiles.use': returns<AppState>()(byProfile),
  'profiles.setKey': returns<ProfileView>()(z.object({ profileId: id, apiKey, keyPlace: z.enum(KEY_PLACES).optional() }).strict()),
  'profiles.clearKey': returns<ProfileView>()(byProfile),
  'profiles.hasKey': returns<boolean>()(byProfile),
  'profiles.testConnection': returns<ConnectionTest>()(
    z.object({ profileId: id.optional(), baseUrl: baseUrl.optional(), apiKey: apiKey.optional() }).strict(),
  ),

  'settings.get': returns<SettingsView>()(none),
  'settings.update': returns<SettingsView>()(
    z
      .object({
        downloadDir: z.string().trim().min(1).max(4096).nullable().optional(),
        autoDownload: z.boolean().optional(),
        notifications: z.boolean().optional(),
        theme: z.enum(THEMES).optional(),
        thisComputer: z
          .object({ renders: z.number().int().min(1).max(64), threads: z.number().int().min(1).max(1024).nullable() })
          .strict()
          .optional(),
      })
      .strict(),
  ),

  'submissions.submit': returns<SubmitFileResult[]>()(
    z.object({ files: z.array(submitFileSchema).min(1).max(500), renderConfig: renderConfigSchema.optional() }).strict(),
  ),
  'submissions.list': returns<SubmissionView[]>()(none),
  'submissions.review': returns<ReviewSheet>()(bySubmission),
  'submissions.startRender': returns<SubmissionView>()(z.object({ submissionId: id, renderConfig: renderConfigSchema }).strict()),
  'submissions.chooseScene': returns<SubmissionView>()(z.object({ submissionId: id, scenePath: z.string().min(1).max(4096) }).strict()),
  'submissions.discard': returns<SubmissionView>()(bySubmission),
  /**
   * Sends a scene held before upload: without the files it misses, and with or without the files held
   * at the edge of its project (`privateFiles`: `send`, or `leave-out`, the default). `project` takes
   * the folder the card offered (`packing.suggestedProject`) as the scene's project, remembered for it:
   * the files outside the old project but inside that folder travel, secret and hard-linked ones do not.
   */
  'submissions.continue': returns<SubmissionView>()(
    z.object({ submissionId: id, privateFiles: z.enum(['send', 'leave-out']).optional(), project: z.string().min(1).max(4096).optional() }).strict(),
  ),
  'submissions.retry': returns<SubmissionView>()(bySubmission),
  'submissions.dismiss': returns<boolean>()(bySubmission),

  /**
   * A folder under the artist's home folder for the file browser (default: the last folder listed, else
   * home); a path outside home, after symlinks and `..`, is refused. Scenes it lists are submitted by path.
   */
  'files.list': returns<FolderView>()(z.object({ path: z.string().min(1).max(4096).optional(), hidden: z.boolean().optional() }).strict()),

  /** Every Blender on this computer and the Renderdrop add-on's state in each (looks afresh each time). */
  'addon.blenders': returns<AddonView>()(none),
  /** Installs the add-on into a Blender `addon.blenders` found (into its user add-on folder); installing twice is harmless. */
  'addon.install': returns<BlenderAddonView>()(z.object({ blender: z.string().min(1).max(4096) }).strict()),
  /** Removes what Renderdrop installed from that Blender, and nothing else. */
  'addon.uninstall': returns<BlenderAddonView>()(z.object({ blender: z.string().min(1).max(4096) }).strict()),

  /** The render workers of the active profile's farm, with the names of the jobs they render. */
  'workers.list': returns<FarmWorkersView>()(none),
  /** Keeps a worker from one job (`jobId`) or every job, or (`block: false`) lets it take them again. */
  'workers.block': returns<FarmWorkersView>()(z.object({ worker: z.string().min(1).max(200), jobId: id.optional(), block: z.boolean() }).strict()),

  'scenes.lastSettings': returns<RenderConfig | null>()(z.object({ fileName: z.string().min(1).max(1000) }).strict()),

  'jobs.list': returns<JobPage>()(jobQuerySchema),
  'jobs.get': returns<JobDetail>()(byJob),
  'jobs.preview': returns<string | null>()(byJob),
  /** The job's frames for the frame strip and viewer. */
  'jobs.frames': returns<FrameStripView>()(byJob),
  /** What Blender printed for a job, from a byte of its log on; from a farm that keeps none, why the job failed. */
  'jobs.log': returns<JobLogView>()(jobLogRequestSchema),
  /** One frame's picture (from the job's folder when downloaded, else from the server); a `thumbnail` prefers the server's small preview. */
  'jobs.frameImage': returns<FrameImage>()(byFrame.extend({ thumbnail: z.boolean().optional() }).strict()),
  /** Opens a downloaded frame in the computer's image viewer; answers its path. */
  'jobs.openFrame': returns<string>()(byFrame),
  'jobs.refresh': returns<JobPage>()(none),
  /** Checks the queue against the server now (new jobs, changed statuses): cheap, for focus and the refresh button. */
  'jobs.sync': returns<SyncView>()(none),
  'jobs.cancel': returns<JobSummary>()(byJob),
  /** Changes the priority of a job waiting or rendering on a Renderdrop node. */
  'jobs.setPriority': returns<JobSummary>()(z.object({ jobId: id, priority: prioritySchema }).strict()),
  /**
   * Removes jobs from the list on this computer for the active profile (kept across restarts); jobs
   * still at work are canceled first. The farm keeps the jobs.
   */
  'jobs.remove': returns<JobRemoval>()(z.object({ jobIds: z.array(id).min(1).max(1000) }).strict()),
  'jobs.download': returns<JobSummary>()(byJob),
  'jobs.openFolder': returns<string>()(byJob),
  'jobs.submitAgain': returns<SubmitFileResult>()(byJob),
  /** Checks the job's download folder frame by frame: missing, empty or undecodable frames. */
  'jobs.verifyFolder': returns<FolderCheckView>()(byJob),
  /** Renders exactly the frames the job's folder misses (same scene, same settings) and downloads them into it. */
  'jobs.renderMissing': returns<SubmitFileResult>()(byJob),
  /**
   * Renders frames of a job that ended again: `frames` (picked in the frame strip), or `failed` for every
   * frame that did not render. Inside the job on a Renderdrop node; elsewhere as a new job of those frames.
   */
  'jobs.requeue': returns<RequeueView>()(
    z
      .object({ jobId: id, frames: z.array(z.number().int().min(0).max(MAX_FRAME)).min(1).max(100_000).optional(), failed: z.literal(true).optional() })
      .strict()
      .refine((r) => (r.frames === undefined) !== (r.failed === undefined), { error: 'Pick the frames to render again, or ask for the failed ones.' }),
  ),
  /**
   * Every frame the server lists for the job, with a small image of those asked for (`frames`, at most
   * 48; default: the first 48).
   */
} as const;

/** The name of a call. */
export type CallName = keyof typeof CALLS;

/** Every call name, for transports that register them one by one. */
export const CALL_NAMES = Object.keys(CALLS) as CallName[];

/** What the caller sends. */
export type CallRequest<K extends CallName> = z.input<(typeof CALLS)[K]['request']>;

/** What the host receives, after the schema checked (and trimmed) it. */
export type CallPayload<K extends CallName> = z.output<(typeof CALLS)[K]['request']>;

/** What the call answers. */
export type CallResponse<K extends CallName> = (typeof CALLS)[K] extends CallSpec<z.ZodType, infer R> ? R : never;

/** Whether `name` is a call of the contract. */
export function isCallName(name: string): name is CallName {
  return Object.prototype.hasOwnProperty.call(CALLS, name);
}
