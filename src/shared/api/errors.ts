import { z } from 'zod';

/** The one error body shape the local render node answers with. */
export const apiErrorBodySchema = z.object({
  error: z
    .object({
      code: z.string(),
      message: z.string(),
    })
    .passthrough(),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;
