import { z } from 'zod';
import { createJobRequestSchema, jobStatusSchema, renderRequestSchema, uploadRequestSchema, validateRequestSchema } from '../../shared/api';
import { quoted } from './zod-route';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Path parameters of `/jobs/{id}/...`. */
export const jobParams = z.object({
  id: z.string().regex(UUID, { error: (issue) => `${quoted(issue.input)} is not a job id (a UUID).` }),
});

const wholeNumber = (name: string, max: number, fallback: number) =>
  z
    .string({ error: `${name} must be a whole number.` })
    .regex(/^\d+$/, { error: `${name} must be a whole number.` })
    .transform(Number)
    .pipe(z.number().min(1, { error: max === Infinity ? `${name} must be greater than 0.` : `${name} must be between 1 and ${max}.` }).max(max, { error: `${name} must be between 1 and ${max}.` }))
    .default(fallback);

/** Query of `GET /jobs`; other query parameters are ignored. */
export const listQuery = z.object({
  page: wholeNumber('page', Infinity, 1),
  pageSize: wholeNumber('pageSize', 100, 20),
  status: z.enum(jobStatusSchema.options, { error: `status must be one of: ${jobStatusSchema.options.join(', ')}.` }).optional(),
});

/** Body of `POST /uploads`: no other fields. */
export const uploadBody = uploadRequestSchema.strict();

/** Body of `POST /jobs`: no other fields. */
export const createJobBody = createJobRequestSchema.strict();

/** Optional body of `POST /jobs/{id}/validate`. */
export const validateBody = validateRequestSchema;

/**
 * Body of `POST /jobs/{id}/render`, checked before anything else, so a replayed request with a bad
 * body is refused too.
 */
export const renderBody = renderRequestSchema;

/** Body of `POST /jobs/{id}/cancel`: none, or an empty object. */
export const cancelBody = z.object({}).strict();

/** Query of a signed storage URL; the signer checks the values. */
export const signedQuery = z.object({ expires: z.unknown(), key: z.unknown(), sig: z.unknown() });

/** Path parameters of the presigned upload URL. */
export const uploadParams = z.object({ slug: z.string() });

/**
 * Path parameters of a signed job file URL: the job id must be a job id (a UUID), so `..` or an
 * encoded `..` never names a folder; the file's path is confined to the job's folder by the route.
 */
export const jobFileParams = z.object({
  jobId: z.string().regex(UUID, { error: (issue) => `${quoted(issue.input)} is not a job id (a UUID).` }),
  '*': z.string(),
});
