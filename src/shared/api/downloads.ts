import { z } from 'zod';

/** One downloadable output with its original name. */
export const outputItemSchema = z
  .object({
    url: z.string(),
    fileName: z.string(),
    view: z.string().nullish(),
    legacy: z.boolean().nullish(),
    relativePath: z.string().nullish(),
    compositeNodeName: z.string().nullish(),
  })
  .passthrough();
export type OutputItem = z.infer<typeof outputItemSchema>;

/** Response of `GET /jobs/{id}/downloads`; arrays are empty until output is ready. */
export const downloadsSchema = z
  .object({
    frames: z.array(z.string()),
    compositeNodes: z.array(z.string()),
    frameOutputs: z.array(outputItemSchema),
    compositeNodeOutputs: z.array(outputItemSchema),
    transforms: z
      .object({
        framesZip: z.string().nullish(),
        compositeNodesZip: z.string().nullish(),
        video: z.unknown().optional(),
        framesZipOutputs: outputItemSchema.nullish(),
        compositeNodesZipOutputs: outputItemSchema.nullish(),
      })
      .passthrough(),
  })
  .passthrough();
export type Downloads = z.infer<typeof downloadsSchema>;
