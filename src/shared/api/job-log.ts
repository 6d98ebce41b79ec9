import { z } from 'zod';

/**
 * `GET /node/jobs/{id}/log` (a Renderdrop node's extension; other servers answer 404): what Blender
 * printed for a job (the analysis, then the render; a render worker's lines carry its name), with the
 * node's folders replaced by short placeholders. `text` runs from byte `offset` of the log to
 * `nextOffset`; ask again with `since=nextOffset` to follow it. A long log keeps its start and its end:
 * `cutBytes` of the middle were left out, and a line in `text` says where.
 */
export const jobLogSchema = z.object({
  jobId: z.string(),
  text: z.string(),
  offset: z.number().int().min(0),
  nextOffset: z.number().int().min(0),
  cutBytes: z.number().int().min(0),
});
export type JobLog = z.infer<typeof jobLogSchema>;
