import { z } from 'zod';
import { renderConfigSchema, type RenderConfig, fileTypeSchema } from '../../shared/api';
import { packSummarySchema } from '../packing';

/**
 * Steps of a submission in order. Each is written before the work of the next one starts:
 * `packing`, `creating-job`, `validate-requested` and `render-requested` record an intent before the
 * work, so a restart knows a bundle may be half written or a request may have reached the server.
 * `traced`: what travels and what is missing is known, nothing is fixed yet; `packing`: the bundle's
 * content is fixed (its fingerprint); `packed`: the bundle (or the file alone) is ready to upload.
 */
export const SUBMISSION_STEPS = [
  'preflighted',
  'traced',
  'packing',
  'packed',
  'upload-target',
  'uploaded',
  'creating-job',
  'job-created',
  'validate-requested',
  'validated',
  'render-requested',
  'completed',
  'downloaded',
] as const;
export type SubmissionStep = (typeof SUBMISSION_STEPS)[number];

/** How a submission ended without reaching its last step. */
export const SUBMISSION_ENDINGS = ['failed', 'canceled', 'declined'] as const;
export type SubmissionEnding = (typeof SUBMISSION_ENDINGS)[number];

/** Current version of the journal file format. */
export const JOURNAL_FORMAT_VERSION = 1;

/** One submission as stored in `<data dir>/submissions/<id>.json`. */
export const submissionRecordSchema = z.object({
  version: z.literal(JOURNAL_FORMAT_VERSION),
  id: z.string().min(1),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Server the submission goes to (the profile's base URL), so it resumes against the same one. */
  baseUrl: z.string(),
  profileId: z.string().nullable(),
  file: z.object({
    path: z.string(),
    name: z.string(),
    size: z.number(),
    mtimeMs: z.number(),
    fileType: fileTypeSchema,
    /** The `.blend` files of a zip as preflight listed them (absent for a `.blend`, and in older records). */
    blendFiles: z.array(z.string()).optional(),
  }),
  step: z.enum(SUBMISSION_STEPS),
  /** Whether a .blend is packed with the files it uses (false: it is sent alone). */
  pack: z.boolean().default(true),
  /**
   * Files held at the packing boundary (outside the project, in a secret place, with other hard links)
   * travel only when one of these absolute paths allows them (the file, or a folder holding it; see
   * holdPrivateFiles); the rest are left out of the bundle (absent: none).
   */
  allowOutside: z.array(z.string()).optional(),
  /** The scene's project folder, chosen by the artist around the scene (absent: the scene's folder). */
  project: z.string().optional(),
  /** What tracing the scene found: what travels, what is missing (null until traced, and for a file sent as it is). */
  packing: packSummarySchema.nullable().default(null),
  /**
   * The bundle uploaded in place of the file (null: the file itself is sent). It lives in the app's
   * data folder and is deleted once the job exists or the submission ends; `sha256` and `size` stay.
   */
  bundle: z.object({ path: z.string(), sha256: z.string(), size: z.number() }).nullable().default(null),
  ending: z.enum(SUBMISSION_ENDINGS).nullable(),
  /** The slug of the latest upload target; after `uploaded` the slug holding the bytes. */
  slug: z.string().nullable(),
  uploadExpiresAt: z.string().nullable(),
  /** What a chunked upload sent and what the farm already had (absent: the whole file was PUT). */
  uploadSent: z.object({ bytesSent: z.number(), bytesReused: z.number() }).optional(),
  /** When the job creation was attempted (set with `creating-job`), for recovery by creation time. */
  jobIntentAt: z.string().nullable(),
  jobId: z.string().nullable(),
  /**
   * Validation configuration sent with validate: `scenePath` names the scene of a zip that holds
   * several (see scene-choice.ts).
   */
  validateBody: z.record(z.string(), z.unknown()).nullable(),
  /**
   * The render configuration requested (null until chosen), stored as the plain object it was; read it
   * with `recordedRenderConfig`, which checks it against the API's schema.
   */
  renderConfig: z.record(z.string(), z.unknown()).nullable(),
  /**
   * Whether outputs should be downloaded once completed, and where: `dir` is the exact folder, or null
   * until the job is known; `root` is the folder chosen at submission under which
   * `<scene>-<short id>/` is created (absent: the runner's default).
   */
  download: z.object({ wanted: z.boolean(), dir: z.string().nullable(), root: z.string().nullable().optional() }),
  downloadedTo: z.string().nullable(),
  /** Why it ended, for failed submissions. */
  error: z.object({ kind: z.string(), message: z.string() }).nullable(),
  history: z.array(z.object({ step: z.string(), at: z.string() })),
});
export type SubmissionRecord = z.infer<typeof submissionRecordSchema>;

/** Whether nothing more will be done for this submission. */
export function isFinished(record: SubmissionRecord): boolean {
  if (record.ending !== null) return true;
  if (record.step === 'downloaded') return true;
  return record.step === 'completed' && !record.download.wanted;
}

/** Whether `step` comes at or after `reference`. */
export function reached(record: Pick<SubmissionRecord, 'step'>, reference: SubmissionStep): boolean {
  return SUBMISSION_STEPS.indexOf(record.step) >= SUBMISSION_STEPS.indexOf(reference);
}

/** The render configuration a record holds, when there is one the API's schema accepts. */
export function recordedRenderConfig(record: Pick<SubmissionRecord, 'renderConfig'>): RenderConfig | null {
  if (record.renderConfig === null) return null;
  const parsed = renderConfigSchema.safeParse(record.renderConfig);
  return parsed.success ? parsed.data : null;
}
