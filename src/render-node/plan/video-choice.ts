import type { RenderConfig, SceneAnalysis, SceneVideo } from '../../shared/api';
import { planVideo, type VideoPlan } from '../video';
import { change, unchanged, type SettingChoice } from './adjustment';
import { fileNamePatternFrom } from './output-adjusters';

/** The video a job asks for without naming one (`videoOutput` on a scene that writes images): MP4, H.264, medium quality. */
const DEFAULT_VIDEO: SceneVideo = { container: 'MPEG4', codec: 'H264', quality: 'MEDIUM', speed: 'GOOD', bitrateKbps: null, keyframeInterval: null, maxBFrames: null, audioCodec: null };

/** A job's video: the plan (null: frames only) and, when the scene wanted one and gets none, why. */
export interface VideoChoice extends SettingChoice<VideoPlan | null> {
  /** Why the scene's video is not made (the artist gets PNG frames only); null when it is, or none was wanted. */
  framesOnly: string | null;
}

/**
 * Whether the node makes a video after the frames, and how: the scene's own video settings when its
 * output is a video (and no image format was asked instead), or MP4/H.264 when the job asks for a video
 * of an image scene. Frames are always rendered as images first; the video is made from them.
 */
export function chooseVideo(requested: RenderConfig, analysis: SceneAnalysis, encoders: readonly string[] | null | undefined, frames: readonly number[]): VideoChoice {
  const askedImages = requested.outputFormat !== undefined;
  const asked = requested.videoOutput === true || requested.outputMediaType === 'VIDEO';
  const video = !askedImages && analysis.video ? analysis.video : asked ? DEFAULT_VIDEO : null;
  if (!video || frames.length === 0) return { ...unchanged(null), framesOnly: null };
  const decision = planVideo({
    video,
    fps: requested.fps ?? analysis.fps,
    fpsBase: requested.fps !== undefined ? 1 : analysis.fpsBase,
    fileNamePattern: fileNamePatternFrom(analysis.outputPath),
    firstFrame: Math.min(...frames),
    lastFrame: Math.max(...frames),
    alpha: (requested.outputSettings?.colorMode ?? analysis.outputSettings.colorMode) === 'RGBA',
    encoders: encoders ?? null,
  });
  if (!decision.ok) return { ...unchanged(null), framesOnly: decision.reason };
  const adjustments = decision.notes.map((note) => change('video', video.audioCodec, 'NONE', note));
  return { value: decision.plan, adjustments, framesOnly: null };
}
