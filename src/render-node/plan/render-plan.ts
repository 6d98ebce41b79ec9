import { z } from 'zod';
import { parseFrameRanges, sceneFrames } from '../../shared/render';
import type { RenderConfig, SceneAnalysis } from '../../shared/api';
import { depthName, formatName } from '../../shared/contract';

/** What the node's Blender can do, as far as a render plan cares. */
export interface NodeCapabilities {
  cyclesDevices: string[];
  openImageDenoise: boolean;
  optix: boolean;
  viewTransforms: string[];
  eeveeUsable: boolean | null;
  totalMemoryBytes: number;
}

/** One change the node made to what was requested, with the reason. */
export interface Adjustment {
  field: string;
  requested: unknown;
  used: unknown;
  reason: string;
}

/** The instructions the Blender render prelude applies before rendering (stored with the job). */
export const renderPlanSchema = z.object({
  frames: z.array(z.number().int()),
  outputDir: z.string(),
  fileNamePattern: z.string(),
  outputFormat: z.string(),
  outputSettings: z.object({
    colorMode: z.string().nullish(),
    colorDepth: z.string().nullish(),
    exrCodec: z.string().nullish(),
    tiffCodec: z.string().nullish(),
    compression: z.number().nullish(),
    quality: z.number().nullish(),
  }),
  engine: z.string(),
  samples: z.number().int().nullable(),
  resolution: z.tuple([z.number().int(), z.number().int()]),
  resolutionPercentage: z.number().int(),
  camera: z.string().nullable(),
  viewLayer: z.string().nullable(),
  denoise: z.object({ enabled: z.boolean(), denoiser: z.string().nullable() }),
  device: z.string(),
  useTiling: z.boolean().nullable(),
  tileSize: z.number().int().nullable(),
  fps: z.number(),
  colorManagement: z.object({ viewTransform: z.string().nullable(), look: z.string().nullable() }),
  compositeOutputDir: z.string(),
  /** Where Blender writes a PNG preview of the first frame once all frames are done. */
  previewPath: z.string().nullable(),
  /** Where Blender saves a PNG preview of each frame as it is rendered (absent in plans of older nodes). */
  previewDir: z.string().nullish(),
  previewMaxSize: z.number().int(),
});
export type RenderPlan = z.infer<typeof renderPlanSchema>;

/**
 * The configuration a render used (`finalConfig`): the requested one completed from the analysis,
 * with the scene's own engine, format and settings where nothing was requested, and every adjustment.
 */
export interface FinalConfig
  extends Omit<RenderConfig, 'renderEngine' | 'compositorDevice' | 'computeDeviceType' | 'denoiserType' | 'outputFormat' | 'outputMediaType' | 'outputSettings'> {
  renderEngine: string;
  compositorDevice: string;
  computeDeviceType: string;
  denoiserType?: string;
  outputFormat: string;
  outputMediaType: string;
  outputSettings: RenderPlan['outputSettings'];
  adjustments: Adjustment[];
}

export type PlanResult =
  | { ok: true; finalConfig: FinalConfig; plan: RenderPlan }
  | { ok: false; code: string; message: string };

const VIDEO_FORMATS = new Set(['FFMPEG', 'AVI_JPEG', 'AVI_RAW']);
const GPU_ONLY_ENGINES = new Set(['BLENDER_EEVEE', 'BLENDER_EEVEE_NEXT', 'BLENDER_WORKBENCH']);

/** The colour depths Blender offers per format, lowest first; formats not listed have 8-bit only. */
const COLOR_DEPTHS: Record<string, string[]> = {
  PNG: ['8', '16'],
  TIFF: ['8', '16'],
  OPEN_EXR: ['16', '32'],
  OPEN_EXR_MULTILAYER: ['16', '32'],
  JPEG2000: ['8', '12', '16'],
  DPX: ['8', '10', '12', '16'],
};

/**
 * The colour depth Blender writes a format at when `depth` is asked: `depth` when the format has it,
 * else the format's highest (what Blender keeps when the format is switched: an 8-bit PNG scene
 * rendered as EXR is written as 32-bit float).
 */
export function fitColorDepth(format: string, depth: string | null | undefined): string | null | undefined {
  const depths = COLOR_DEPTHS[format] ?? ['8'];
  if (depth === null || depth === undefined || depths.includes(depth)) return depth;
  return depths[depths.length - 1];
}

/** A frame file name pattern from a scene's output path: its base name, with `####` for the frame. */
export function fileNamePatternFrom(outputPath: string): string {
  const base = outputPath.replace(/\\/g, '/').split('/').pop() ?? '';
  const clean = base.replace(/[^A-Za-z0-9._#-]/g, '_').replace(/\.+$/, '');
  if (clean === '' || /^#+$/.test(clean)) return 'frame_####';
  return clean.includes('#') ? clean : `${clean}####`;
}

/**
 * Merge a requested render configuration over the scene's analysis into the configuration actually
 * used, recording every adjustment this node has to make, and the plan Blender will follow.
 */
export function planRender(
  requested: RenderConfig,
  analysis: SceneAnalysis,
  caps: NodeCapabilities,
  dirs: { outputDir: string; compositeOutputDir: string; previewPath?: string; previewDir?: string },
): PlanResult {
  const adjustments: Adjustment[] = [];
  const adjust = (field: string, req: unknown, used: unknown, reason: string) =>
    adjustments.push({ field, requested: req, used, reason });

  let frames: number[];
  if (requested.frameRanges && requested.frameRanges.length > 0) {
    const parsed = parseFrameRanges(requested.frameRanges);
    if (!parsed.ok) return { ok: false, code: 'invalid_frame_ranges', message: `frameRanges: ${parsed.error}` };
    frames = parsed.frames;
  } else {
    frames = sceneFrames(analysis.frameStart, analysis.frameEnd, analysis.frameStep);
  }
  if (frames.length === 0) return { ok: false, code: 'invalid_frame_ranges', message: 'The scene has no frames to render.' };

  const camera = requested.activeCamera ?? analysis.activeCamera;
  if (requested.activeCamera && !analysis.cameras.includes(requested.activeCamera)) {
    return { ok: false, code: 'unknown_camera', message: `The scene has no camera "${requested.activeCamera}" (it has: ${analysis.cameras.join(', ') || 'none'}).` };
  }
  if (!camera) return { ok: false, code: 'no_camera', message: 'The scene has no camera to render from; add one or choose activeCamera.' };
  const layerNames = analysis.viewLayers.map((l) => l.name);
  if (requested.activeViewLayer && !layerNames.includes(requested.activeViewLayer)) {
    return { ok: false, code: 'unknown_view_layer', message: `The scene has no view layer "${requested.activeViewLayer}" (it has: ${layerNames.join(', ')}).` };
  }

  let engine = requested.renderEngine ?? analysis.engine;
  if (GPU_ONLY_ENGINES.has(engine) && caps.eeveeUsable === false) {
    adjust('renderEngine', engine, 'CYCLES', `${engine} needs a GPU display context that this node does not have; rendered with Cycles.`);
    engine = 'CYCLES';
  }

  let device = requested.computeDeviceType ?? 'CPU';
  if (device === 'NONE') device = 'CPU';
  if (device !== 'CPU' && !caps.cyclesDevices.includes(device)) {
    adjust('computeDeviceType', device, 'CPU', `This node has no ${device} device; rendered on the CPU.`);
    device = 'CPU';
  }
  let gpuCount = requested.gpuCount ?? 0;
  if (device === 'CPU' && gpuCount > 0) {
    adjust('gpuCount', gpuCount, 0, 'Rendered on the CPU, so no GPU is used.');
    gpuCount = 0;
  }
  let compositorDevice = requested.compositorDevice ?? 'CPU';
  if (compositorDevice !== 'CPU') {
    adjust('compositorDevice', compositorDevice, 'CPU', 'This node composites on the CPU.');
    compositorDevice = 'CPU';
  }

  let denoisingEnabled = requested.denoisingEnabled ?? analysis.denoisingEnabled;
  let denoiserType: string | null = requested.denoiserType ?? analysis.denoiser;
  if (denoisingEnabled) {
    if (denoiserType === 'OPTIX' && !caps.optix) {
      if (caps.openImageDenoise) {
        adjust('denoiserType', 'OPTIX', 'OPENIMAGEDENOISE', 'OptiX is not available on this node; denoised with OpenImageDenoise.');
        denoiserType = 'OPENIMAGEDENOISE';
      } else {
        adjust('denoisingEnabled', true, false, 'This Blender has no denoiser (neither OptiX nor OpenImageDenoise); denoising was switched off.');
        denoisingEnabled = false;
      }
    } else if (denoiserType !== 'OPTIX' && !caps.openImageDenoise) {
      adjust('denoisingEnabled', true, false, 'This Blender was built without OpenImageDenoise; denoising was switched off.');
      denoisingEnabled = false;
    }
  }

  let outputFormat: string = requested.outputFormat ?? analysis.outputFormat;
  if (VIDEO_FORMATS.has(outputFormat)) {
    adjust('outputFormat', outputFormat, 'PNG', 'This node renders image sequences; video formats are written as PNG frames.');
    outputFormat = 'PNG';
  }
  let outputMediaType = requested.outputMediaType ?? 'IMAGE';
  let videoOutput = requested.videoOutput ?? false;
  if (outputMediaType === 'VIDEO' || videoOutput) {
    const reason = 'Video encoding is not offered by this node; frames are delivered as images.';
    if (outputMediaType === 'VIDEO') adjust('outputMediaType', 'VIDEO', 'IMAGE', reason);
    if (videoOutput) adjust('videoOutput', true, false, reason);
    outputMediaType = 'IMAGE';
    videoOutput = false;
  }
  if (requested.minimumRam && requested.minimumRam * 1024 ** 3 > caps.totalMemoryBytes) {
    adjust('minimumRam', requested.minimumRam, Math.floor(caps.totalMemoryBytes / 1024 ** 3), 'This node has less memory than requested; the render may run out of memory.');
  }

  let preset = requested.colorManagementPreset;
  let viewTransform: string | null = null;
  if (preset === 'aces') {
    const aces = caps.viewTransforms.find((v) => /aces/i.test(v));
    if (aces) viewTransform = aces;
    else {
      adjust('colorManagementPreset', 'aces', 'default', `This Blender's colour configuration has no ACES view transform; the scene's "${analysis.colorManagement.viewTransform}" was kept.`);
      preset = 'default';
    }
  }

  const outputSettings = { ...analysis.outputSettings, ...(requested.outputSettings ?? {}) };
  const depth = fitColorDepth(outputFormat, outputSettings.colorDepth);
  if (depth != null && depth !== outputSettings.colorDepth) {
    const asked = requested.outputSettings?.colorDepth;
    if (asked !== undefined) {
      adjust('outputSettings', requested.outputSettings, { ...outputSettings, colorDepth: depth }, `${formatName(outputFormat)} has no ${asked}-bit colour depth; written at ${depthName(outputFormat, depth)}.`);
    }
    outputSettings.colorDepth = depth;
  }
  const resolution = requested.resolution ?? analysis.resolution;
  const resolutionPercentage = requested.resolutionPercentage ?? analysis.resolutionPercentage;
  const samples = requested.sampleCount ?? analysis.samples;
  const fps = requested.fps ?? analysis.fps;
  const viewLayer = requested.activeViewLayer ?? analysis.activeViewLayer;

  const finalConfig: FinalConfig = {
    colorManagementPreset: preset,
    frameRanges: requested.frameRanges?.length ? requested.frameRanges : [`${analysis.frameStart}-${analysis.frameEnd}${analysis.frameStep > 1 ? `/${analysis.frameStep}` : ''}`],
    ...(requested.notes !== undefined ? { notes: requested.notes } : {}),
    renderEngine: engine,
    compositorDevice: compositorDevice,
    computeDeviceType: device,
    gpuCount,
    ...(samples !== null ? { sampleCount: samples } : {}),
    denoisingEnabled,
    ...(denoiserType ? { denoiserType } : {}),
    resolution,
    resolutionPercentage,
    outputFormat: outputFormat,
    outputMediaType: outputMediaType,
    fps,
    videoOutput,
    ...(requested.useTiling !== undefined ? { useTiling: requested.useTiling } : {}),
    ...(requested.tileSize !== undefined ? { tileSize: requested.tileSize } : {}),
    outputSettings: outputSettings,
    ...(requested.minimumRam !== undefined ? { minimumRam: requested.minimumRam } : {}),
    activeCamera: camera,
    ...(viewLayer ? { activeViewLayer: viewLayer } : {}),
    adjustments,
  };

  const plan: RenderPlan = {
    frames,
    outputDir: dirs.outputDir,
    fileNamePattern: fileNamePatternFrom(analysis.outputPath),
    outputFormat,
    outputSettings,
    engine,
    samples,
    resolution,
    resolutionPercentage,
    camera,
    viewLayer,
    denoise: { enabled: denoisingEnabled, denoiser: denoisingEnabled ? denoiserType : null },
    device,
    useTiling: requested.useTiling ?? null,
    tileSize: requested.tileSize ?? null,
    fps,
    colorManagement: { viewTransform, look: null },
    compositeOutputDir: dirs.compositeOutputDir,
    previewPath: dirs.previewPath ?? null,
    previewDir: dirs.previewDir ?? null,
    previewMaxSize: 512,
  };
  return { ok: true, finalConfig, plan };
}
