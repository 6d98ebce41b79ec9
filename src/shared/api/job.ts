import { z } from 'zod';
import { jobStatusSchema } from './job-status';

export { JOB_STATUSES, jobStatusSchema, isActiveStatus, isTerminalStatus, isWorkingStatus, isPastValidation, needsReview, type JobStatus, type TerminalStatus } from './job-status';

/**
 * Why a job failed. `name` is a short PascalCase code (for example `SceneUnreadable`), `type` the
 * stage or category (`upload`, `zip`, `scene`, `blender`, `render`, `internal`). Servers may add a
 * human-readable `message`.
 */
export const failedReasonSchema = z
  .object({
    name: z.string(),
    type: z.string(),
    message: z.string().optional(),
  })
  .passthrough();
export type FailedReason = z.infer<typeof failedReasonSchema>;

const optional = <T extends z.ZodType>(schema: T) => schema.nullish();

/**
 * A job as the API returns it. Required: id, status, workspaceId, createdAt, updatedAt; every other
 * field may be absent or null. Unknown extra fields are kept.
 */
export const jobSchema = z
  .object({
    id: z.string().min(1),
    status: jobStatusSchema,
    workspaceId: z.string().min(1),
    createdAt: z.string(),
    updatedAt: z.string(),
    userId: optional(z.string()),
    rootFolderId: optional(z.string()),
    normalizedSeconds: optional(z.number()),
    previewUrl: optional(z.string()),
    failedReason: optional(failedReasonSchema),
    requestedConfig: z.unknown().optional(),
    finalConfig: z.unknown().optional(),
    output: optional(z.object({ isDeletedForClient: z.boolean() }).passthrough()),
    isAnalysisSkipped: optional(z.boolean()),
    analysisId: optional(z.string()),
    analysis: z.unknown().optional(),
    sceneFile: z.unknown().optional(),
  })
  .passthrough();
export type Job = z.infer<typeof jobSchema>;

/** Response of `GET /jobs/{id}`. */
export const jobEnvelopeSchema = z.object({ data: jobSchema }).passthrough();

/** Pagination block of `GET /jobs`. */
export const paginationSchema = z
  .object({
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  })
  .passthrough();
export type Pagination = z.infer<typeof paginationSchema>;

/** Response of `GET /jobs`. */
export const jobListSchema = z.object({ jobs: z.array(jobSchema), pagination: paginationSchema }).passthrough();
export type JobList = z.infer<typeof jobListSchema>;

/** Frame progress of one job. */
export const progressRecordSchema = z
  .object({
    jobId: z.string(),
    completedFrames: z.number().int(),
    totalFrames: z.number().int(),
  })
  .passthrough();
export type ProgressRecord = z.infer<typeof progressRecordSchema>;
export const progressListSchema = z.array(progressRecordSchema);
