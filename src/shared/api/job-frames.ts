import { z } from 'zod';
import { httpUrlSchema } from './http-url';

/** One frame a Renderdrop node has rendered for a job, with a small PNG of it when there is one. */
export const renderedFrameSchema = z.object({
  frame: z.number().int(),
  fileName: z.string(),
  url: httpUrlSchema,
  previewUrl: httpUrlSchema.nullable(),
  /** The render worker that rendered it (null: the node's own Blender; absent from older nodes). */
  worker: z.string().nullish(),
  /** Size of its file in bytes (absent from older nodes). */
  size: z.number().int().nonnegative().nullish(),
  /** When its file was last written, ISO 8601: it changes when the frame is rendered again (absent from older nodes). */
  modifiedAt: z.string().nullish(),
});

/**
 * `GET /node/jobs/{id}/frames` (a Renderdrop node's extension; other servers answer 404): the frames
 * a job has rendered so far, in every state, so a frame strip can fill in while the job renders.
 */
export const jobFramesSchema = z.object({
  jobId: z.string(),
  totalFrames: z.number().int(),
  frames: z.array(renderedFrameSchema),
});
export type JobFrames = z.infer<typeof jobFramesSchema>;
