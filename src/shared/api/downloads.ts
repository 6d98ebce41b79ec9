import { z } from 'zod';
import { httpUrlSchema } from './http-url';

/**
 * One downloadable output with its original name. Only what a download uses is checked (its URL, name,
 * folder and compositor node); other fields (`view`, `legacy`, anything a server adds) are kept as sent.
 */
export const outputItemSchema = z.looseObject({
  url: httpUrlSchema,
  fileName: z.string(),
  relativePath: z.string().nullish(),
  compositeNodeName: z.string().nullish(),
});
export type OutputItem = z.infer<typeof outputItemSchema>;

/**
 * Response of `GET /jobs/{id}/downloads`; arrays are empty until output is ready. The four lists a
 * download reads are checked strictly; the packaging entries (`transforms`: frame zips, video) are not
 * used and are accepted whatever their shape.
 */
export const downloadsSchema = z.looseObject({
  frames: z.array(httpUrlSchema),
  compositeNodes: z.array(httpUrlSchema),
  frameOutputs: z.array(outputItemSchema),
  compositeNodeOutputs: z.array(outputItemSchema),
});
export type Downloads = z.infer<typeof downloadsSchema>;
