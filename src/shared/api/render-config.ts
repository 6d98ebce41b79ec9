import { z } from 'zod';
import { COLOR_MANAGEMENT_PRESETS, OUTPUT_FORMATS } from '../api-values';
import { prioritySchema, tagListSchema } from './studio';
import { FRAME_ORDERS } from './job-estimate';

export { COLOR_MANAGEMENT_PRESETS, OUTPUT_FORMATS };

export const colorPresetSchema = z.enum(COLOR_MANAGEMENT_PRESETS);

/** `outputSettings` of a render configuration. */
export const outputSettingsSchema = z
  .object({
    colorMode: z.enum(['BW', 'RGB', 'RGBA']).optional(),
    colorDepth: z.enum(['8', '10', '12', '16', '32']).optional(),
    exrCodec: z.enum(['NONE', 'PXR24', 'ZIP', 'PIZ', 'RLE', 'ZIPS', 'B44', 'B44A', 'DWAA', 'DWAB']).optional(),
    tiffCodec: z.enum(['NONE', 'DEFLATE', 'LZW', 'PACKBITS']).optional(),
    compression: z.number().min(0).max(100).optional(),
    quality: z.number().min(0).max(100).optional(),
  })
  .strict();
export type OutputSettings = z.infer<typeof outputSettingsSchema>;

export const outputFormatSchema = z.enum(OUTPUT_FORMATS);

/**
 * `requestedRenderConfig` of `POST /jobs/{id}/render`. Only `colorManagementPreset` is required; every
 * omitted field takes the value detected during validation.
 */
export const renderConfigSchema = z
  .object({
    colorManagementPreset: colorPresetSchema,
    frameRanges: z.array(z.string()).optional(),
    notes: z.string().optional(),
    renderEngine: z.enum(['CYCLES', 'BLENDER_EEVEE', 'BLENDER_EEVEE_NEXT', 'BLENDER_WORKBENCH']).optional(),
    compositorDevice: z.enum(['CPU', 'GPU']).optional(),
    computeDeviceType: z.enum(['NONE', 'CPU', 'CUDA', 'OPTIX', 'HIP', 'ONEAPI', 'METAL']).optional(),
    gpuCount: z.number().int().min(0).optional(),
    sampleCount: z.number().int().min(1).max(1_000_000).optional(),
    denoisingEnabled: z.boolean().optional(),
    denoiserType: z.enum(['OPTIX', 'OPENIMAGEDENOISE']).optional(),
    resolution: z.tuple([z.number().int().min(4).max(65536), z.number().int().min(4).max(65536)]).optional(),
    resolutionPercentage: z.number().int().min(1).max(1000).optional(),
    outputFormat: outputFormatSchema.optional(),
    outputMediaType: z.enum(['IMAGE', 'VIDEO']).optional(),
    fps: z.number().int().min(1).max(1000).optional(),
    videoOutput: z.boolean().optional(),
    useTiling: z.boolean().optional(),
    tileSize: z.number().int().min(8).max(65536).optional(),
    outputSettings: outputSettingsSchema.optional(),
    minimumRam: z.number().int().min(0).optional(),
    activeCamera: z.string().min(1).optional(),
    activeViewLayer: z.string().min(1).optional(),
    /**
     * A Renderdrop-node extension (other servers refuse it): the Blender version to render with, a
     * series ("4.3") or an exact version ("4.3.2") the node has; absent: the farm's choice.
     */
    blenderVersion: z.string().regex(/^\d+\.\d+(\.\d+)?$/, { error: 'blenderVersion is a Blender version such as "4.3" or "4.3.2".' }).optional(),
    /** A Renderdrop-node extension: the order frames render in, `spread` (the default: across the shot first) or `sequential`. */
    frameOrder: z.enum(FRAME_ORDERS).optional(),
    /** A Renderdrop-node extension: the job's priority, 0-100 (default 50); the node orders work by it first. */
    priority: prioritySchema.optional(),
    /** A Renderdrop-node extension: worker tags the job needs (`["big-ram"]`); only workers with all of them render it. */
    requires: tagListSchema.optional(),
  })
  .strict();
export type RenderConfig = z.infer<typeof renderConfigSchema>;

const RENDER_CONFIG_NEEDED = 'requestedRenderConfig is required and must be a non-empty object (at least {"colorManagementPreset": "default"}).';

/** Body of `POST /jobs/{id}/render`: exactly `requestedRenderConfig`, a non-empty, valid render configuration. */
export const renderRequestSchema = z
  .object({
    requestedRenderConfig: z
      .record(z.string(), z.unknown(), { error: RENDER_CONFIG_NEEDED })
      .refine((config) => Object.keys(config).length > 0, { error: RENDER_CONFIG_NEEDED })
      .pipe(renderConfigSchema),
  })
  .strict();

/**
 * Optional body of `POST /jobs/{id}/validate`. `scenePath` names the `.blend` to render inside a zip
 * when it holds more than one.
 */
export const validateRequestSchema = z
  .object({
    scenePath: z.string().min(1).optional(),
  })
  .strict();
export type ValidateRequest = z.infer<typeof validateRequestSchema>;
