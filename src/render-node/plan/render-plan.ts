import { z } from 'zod';
import { FRAME_ORDERS, type FrameOrder, type RenderConfig, type SceneAnalysis } from '../../shared/api';
import { framesInOrder } from '../../shared/render';
import { adjusted, unchanged, type Adjustment, type SettingChoice } from './adjustment';
import { adjustCompositorDevice, adjustDenoising, adjustDevice, adjustEngine, adjustGpuCount, checkMemory, type DenoiseChoice } from './device-adjusters';
import type { NodeCapabilities } from './node-capabilities';
import { adjustColorManagement, adjustFileSettings, adjustMediaType, adjustOutputFormat, fileNamePatternFrom, type ColorManagementChoice, type FileSettings, type MediaChoice } from './output-adjusters';
import { chooseCamera, chooseFrames, chooseViewLayer, type PlanRefusal } from './scene-choices';
import { chooseVideo } from './video-choice';
import { videoPlanSchema, type VideoPlan } from '../video';

/**
 * The node's plan of a job's render, stored with the job: every setting decided. Blender is handed it
 * as its BlenderRenderPlan (resources/blender/render.py applies it before rendering).
 */
export const renderPlanSchema = z.object({
  /** The job's frames in frame order (see {@link renderOrderOf} for the order they render in). */
  frames: z.array(z.number().int()),
  /** The order the frames render in: `spread` across the shot first, or `sequential`; absent (plans of older nodes): sequential. */
  frameOrder: z.enum(FRAME_ORDERS).nullish(),
  /**
   * The frames render in one Blender run, in frame order from the first (the scene simulates without a
   * bake: each frame follows from the one before); absent or false: they may be split between runs.
   */
  oneRun: z.boolean().nullish(),
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
  /** How the node makes the job's video from its frames once they are all rendered (absent: frames only). */
  video: videoPlanSchema.nullish(),
  /** Blender runs the scene's own Python (a node started with --trust-python); absent or false: it does not. */
  scenePython: z.boolean().nullish(),
  /**
   * The Blender version the render was asked to use (`blenderVersion`), as the node had it when the
   * render was requested; absent: the farm's choice (on render workers, made when the render starts).
   */
  blender: z.string().nullish(),
});
export type RenderPlan = z.infer<typeof renderPlanSchema>;

/** The frames of a plan in the order they render: spread across the shot, or in frame order (plans without an order). */
export function renderOrderOf(plan: Pick<RenderPlan, 'frames' | 'frameOrder'>): number[] {
  return framesInOrder(plan.frames, plan.frameOrder ?? 'sequential');
}

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

/** A planned render, or why the node refuses it. */
export type PlanResult = { ok: true; finalConfig: FinalConfig; plan: RenderPlan } | PlanRefusal;

/** Where a render's files go. */
export interface PlanDirs {
  outputDir: string;
  compositeOutputDir: string;
  previewPath?: string;
  previewDir?: string;
}

/** Every setting of a render as the node will use it. */
interface ChosenSettings {
  frames: number[];
  frameOrder: FrameOrder;
  /** Null when the video sequencer makes the frames and the scene has no camera. */
  camera: string | null;
  viewLayer: string | null;
  engine: string;
  device: string;
  gpuCount: number;
  compositorDevice: string;
  denoise: DenoiseChoice;
  outputFormat: string;
  media: MediaChoice;
  colorManagement: ColorManagementChoice;
  fileSettings: FileSettings;
  resolution: [number, number];
  resolutionPercentage: number;
  samples: number | null;
  fps: number;
  video: VideoPlan | null;
}

/**
 * Merge a requested render configuration over the scene's analysis into the configuration actually
 * used, recording every adjustment this node has to make, and the plan Blender will follow.
 */
export function planRender(requested: RenderConfig, analysis: SceneAnalysis, caps: NodeCapabilities, dirs: PlanDirs): PlanResult {
  const frames = chooseFrames(requested, analysis);
  if (!frames.ok) return frames;
  const camera = chooseCamera(requested, analysis);
  if (!camera.ok) return camera;
  const viewLayer = chooseViewLayer(requested, analysis);
  if (!viewLayer.ok) return viewLayer;

  const order = chooseFrameOrder(requested, analysis);
  const engine = adjustEngine(requested, analysis, caps);
  const device = adjustDevice(requested, caps);
  const gpuCount = adjustGpuCount(requested, device.value);
  const compositorDevice = adjustCompositorDevice(requested);
  const denoise = adjustDenoising(requested, analysis, caps);
  const video = chooseVideo(requested, analysis, caps.videoEncoders, frames.value);
  const videoOutcome = { made: video.value?.label ?? null, framesOnly: video.framesOnly };
  const outputFormat = adjustOutputFormat(requested, analysis, videoOutcome);
  const media = adjustMediaType(requested, videoOutcome);
  const memory = checkMemory(requested, caps);
  const colorManagement = adjustColorManagement(requested, analysis, caps);
  const fileSettings = adjustFileSettings(requested, analysis, outputFormat.value);
  const adjustments = [order, engine, device, gpuCount, compositorDevice, denoise, outputFormat, media, video, memory, colorManagement, fileSettings].flatMap((c) => c.adjustments);

  const chosen: ChosenSettings = {
    frames: frames.value,
    frameOrder: order.value,
    camera: camera.value,
    viewLayer: viewLayer.value,
    engine: engine.value,
    device: device.value,
    gpuCount: gpuCount.value,
    compositorDevice: compositorDevice.value,
    denoise: denoise.value,
    outputFormat: outputFormat.value,
    media: media.value,
    colorManagement: colorManagement.value,
    fileSettings: fileSettings.value,
    resolution: requested.resolution ?? analysis.resolution,
    resolutionPercentage: requested.resolutionPercentage ?? analysis.resolutionPercentage,
    samples: requested.sampleCount ?? analysis.samples,
    fps: requested.fps ?? analysis.fps,
    video: video.value,
  };
  return { ok: true, finalConfig: finalConfigOf(requested, analysis, chosen, adjustments), plan: renderPlanOf(analysis, chosen, requested, dirs) };
}

/**
 * The order the frames render in: as asked, else spread across the shot; in frame order for a scene
 * that simulates without a bake (each frame follows from the one before, as Blender renders it).
 */
function chooseFrameOrder(requested: RenderConfig, analysis: SceneAnalysis): SettingChoice<FrameOrder> {
  const simulations = analysis.simulations ?? [];
  if (simulations.length === 0) return unchanged(requested.frameOrder ?? 'spread');
  if (requested.frameOrder === 'spread') return adjusted('frameOrder', 'spread', 'sequential', `the scene simulates ${simulations.join(', ')} without a bake: each frame follows from the one before`);
  return unchanged('sequential');
}

/** The scene's own frame range, written as a frame range. */
function sceneFrameRange(analysis: SceneAnalysis): string {
  return `${analysis.frameStart}-${analysis.frameEnd}${analysis.frameStep > 1 ? `/${analysis.frameStep}` : ''}`;
}

function finalConfigOf(requested: RenderConfig, analysis: SceneAnalysis, chosen: ChosenSettings, adjustments: Adjustment[]): FinalConfig {
  return {
    colorManagementPreset: chosen.colorManagement.preset,
    frameRanges: requested.frameRanges?.length ? requested.frameRanges : [sceneFrameRange(analysis)],
    ...(requested.notes !== undefined ? { notes: requested.notes } : {}),
    renderEngine: chosen.engine,
    compositorDevice: chosen.compositorDevice,
    computeDeviceType: chosen.device,
    gpuCount: chosen.gpuCount,
    ...(chosen.samples !== null ? { sampleCount: chosen.samples } : {}),
    denoisingEnabled: chosen.denoise.enabled,
    ...(chosen.denoise.denoiser ? { denoiserType: chosen.denoise.denoiser } : {}),
    resolution: chosen.resolution,
    resolutionPercentage: chosen.resolutionPercentage,
    outputFormat: chosen.outputFormat,
    outputMediaType: chosen.media.outputMediaType,
    fps: chosen.fps,
    videoOutput: chosen.media.videoOutput,
    ...(requested.useTiling !== undefined ? { useTiling: requested.useTiling } : {}),
    ...(requested.tileSize !== undefined ? { tileSize: requested.tileSize } : {}),
    outputSettings: chosen.fileSettings,
    ...(requested.minimumRam !== undefined ? { minimumRam: requested.minimumRam } : {}),
    ...(chosen.camera ? { activeCamera: chosen.camera } : {}),
    ...(chosen.viewLayer ? { activeViewLayer: chosen.viewLayer } : {}),
    adjustments,
  };
}

function renderPlanOf(analysis: SceneAnalysis, chosen: ChosenSettings, requested: RenderConfig, dirs: PlanDirs): RenderPlan {
  return {
    frames: chosen.frames,
    frameOrder: chosen.frameOrder,
    ...(analysis.simulations?.length ? { oneRun: true } : {}),
    outputDir: dirs.outputDir,
    fileNamePattern: fileNamePatternFrom(analysis.outputPath),
    outputFormat: chosen.outputFormat,
    outputSettings: chosen.fileSettings,
    engine: chosen.engine,
    samples: chosen.samples,
    resolution: chosen.resolution,
    resolutionPercentage: chosen.resolutionPercentage,
    camera: chosen.camera,
    viewLayer: chosen.viewLayer,
    denoise: { enabled: chosen.denoise.enabled, denoiser: chosen.denoise.enabled ? chosen.denoise.denoiser : null },
    device: chosen.device,
    useTiling: requested.useTiling ?? null,
    tileSize: requested.tileSize ?? null,
    fps: chosen.fps,
    colorManagement: { viewTransform: chosen.colorManagement.viewTransform, look: null },
    compositeOutputDir: dirs.compositeOutputDir,
    previewPath: dirs.previewPath ?? null,
    previewDir: dirs.previewDir ?? null,
    previewMaxSize: 512,
    video: chosen.video,
  };
}
