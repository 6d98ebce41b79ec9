import type { RenderConfig, SceneAnalysis } from '../../shared/api';
import { depthName, formatName } from '../../shared/contract';
import { adjusted, change, unchanged, type Adjustment, type SettingChoice } from './adjustment';
import type { NodeCapabilities } from './node-capabilities';

const VIDEO_FORMATS = new Set(['FFMPEG', 'AVI_JPEG', 'AVI_RAW']);

/** The colour depths Blender offers per format, lowest first; formats not listed have 8-bit only. */
const COLOR_DEPTHS: Record<string, string[]> = {
  PNG: ['8', '16'],
  TIFF: ['8', '16'],
  OPEN_EXR: ['16', '32'],
  OPEN_EXR_MULTILAYER: ['16', '32'],
  JPEG2000: ['8', '12', '16'],
  DPX: ['8', '10', '12', '16'],
};

/** What kind of output is delivered: images, and a video made from them when the node makes one. */
export interface MediaChoice {
  outputMediaType: string;
  videoOutput: boolean;
}

/** The colour management preset used and the view transform it stands for (null: the scene's own). */
export interface ColorManagementChoice {
  preset: RenderConfig['colorManagementPreset'];
  viewTransform: string | null;
}

/** The settings frame files are written with: the scene's, overridden by the requested ones. */
export type FileSettings = SceneAnalysis['outputSettings'];

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

/** Whether the job's video is made (its label, "MP4 (H.264)"), or why the artist gets frames only. */
export interface VideoOutcome {
  made: string | null;
  framesOnly: string | null;
}

/**
 * The image format: the requested or the scene's. A video format's frames are rendered as PNG images:
 * the video is then made from them on the node, or not (and the reason says so).
 */
export function adjustOutputFormat(requested: RenderConfig, analysis: SceneAnalysis, video: VideoOutcome = { made: null, framesOnly: null }): SettingChoice<string> {
  const outputFormat: string = requested.outputFormat ?? analysis.outputFormat;
  if (VIDEO_FORMATS.has(outputFormat)) {
    const reason = video.made
      ? `Frames are rendered as PNG images, then made into the ${video.made} video on the farm; you get both.`
      : (video.framesOnly ?? 'This node renders image sequences; video formats are written as PNG frames.');
    return adjusted('outputFormat', outputFormat, 'PNG', reason);
  }
  return unchanged(outputFormat);
}

/** The media type: a video beside the frames when the node makes one, else images. */
export function adjustMediaType(requested: RenderConfig, video: VideoOutcome = { made: null, framesOnly: null }): SettingChoice<MediaChoice> {
  if (video.made) return unchanged({ outputMediaType: 'VIDEO', videoOutput: true });
  const outputMediaType = requested.outputMediaType ?? 'IMAGE';
  const videoOutput = requested.videoOutput ?? false;
  if (outputMediaType !== 'VIDEO' && !videoOutput) return unchanged({ outputMediaType, videoOutput });
  const reason = video.framesOnly ?? 'Video encoding is not offered by this node; frames are delivered as images.';
  const adjustments: Adjustment[] = [];
  if (outputMediaType === 'VIDEO') adjustments.push(change('outputMediaType', 'VIDEO', 'IMAGE', reason));
  if (videoOutput) adjustments.push(change('videoOutput', true, false, reason));
  return { value: { outputMediaType: 'IMAGE', videoOutput: false }, adjustments };
}

/** The colour management: ACES when asked and this Blender's colour configuration has it, else the scene's own. */
export function adjustColorManagement(requested: RenderConfig, analysis: SceneAnalysis, caps: NodeCapabilities): SettingChoice<ColorManagementChoice> {
  const preset = requested.colorManagementPreset;
  if (preset !== 'aces') return unchanged({ preset, viewTransform: null });
  const aces = caps.viewTransforms.find((v) => /aces/i.test(v));
  if (aces) return unchanged({ preset, viewTransform: aces });
  return {
    value: { preset: 'default', viewTransform: null },
    adjustments: [change('colorManagementPreset', 'aces', 'default', `This Blender's colour configuration has no ACES view transform; the scene's "${analysis.colorManagement.viewTransform}" was kept.`)],
  };
}

/** The file settings: the requested over the scene's, with a colour depth `outputFormat` has. */
export function adjustFileSettings(requested: RenderConfig, analysis: SceneAnalysis, outputFormat: string): SettingChoice<FileSettings> {
  const settings = { ...analysis.outputSettings, ...(requested.outputSettings ?? {}) };
  const depth = fitColorDepth(outputFormat, settings.colorDepth);
  if (depth == null || depth === settings.colorDepth) return unchanged(settings);
  const asked = requested.outputSettings?.colorDepth;
  const fitted = { ...settings, colorDepth: depth };
  if (asked === undefined) return unchanged(fitted);
  const reason = `${formatName(outputFormat)} has no ${asked}-bit colour depth; written at ${depthName(outputFormat, depth)}.`;
  return { value: fitted, adjustments: [change('outputSettings', requested.outputSettings, { ...fitted }, reason)] };
}
