import { z } from 'zod';
import type { SceneVideo } from '../../shared/api';
import { videoLabel } from '../../shared/contract';

/** A container Blender offers, as FFmpeg writes it. */
interface Container {
  /** FFmpeg's muxer. */
  muxer: string;
  /** The file extension Blender gives it. */
  extension: string;
}

/** Blender's containers (`scene.render.ffmpeg.format`) by their RNA names. */
const CONTAINERS: Record<string, Container> = {
  MPEG4: { muxer: 'mp4', extension: '.mp4' },
  QUICKTIME: { muxer: 'mov', extension: '.mov' },
  MKV: { muxer: 'matroska', extension: '.mkv' },
  WEBM: { muxer: 'webm', extension: '.webm' },
  OGG: { muxer: 'ogg', extension: '.ogv' },
  AVI: { muxer: 'avi', extension: '.avi' },
  FLASH: { muxer: 'flv', extension: '.flv' },
  MPEG1: { muxer: 'mpeg', extension: '.mpg' },
  MPEG2: { muxer: 'dvd', extension: '.dvd' },
  DV: { muxer: 'dv', extension: '.dv' },
};

/** A video codec Blender offers, as FFmpeg encodes it. */
interface Codec {
  /** FFmpeg's encoders, preferred first (the first one this FFmpeg has is used). */
  encoders: string[];
  /** How quality is set: a constant rate factor, a bitrate, or nothing (lossless codecs). */
  rate: 'crf' | 'bitrate' | 'none';
  /** The pixel format, or with alpha when the scene writes RGBA and the codec keeps it. */
  pixelFormat: string;
  alphaPixelFormat?: string;
}

const YUV420 = 'yuv420p';

/** Blender's video codecs (`scene.render.ffmpeg.codec`) by their RNA names. */
const CODECS: Record<string, Codec> = {
  H264: { encoders: ['libx264'], rate: 'crf', pixelFormat: YUV420 },
  H265: { encoders: ['libx265'], rate: 'crf', pixelFormat: YUV420 },
  AV1: { encoders: ['libaom-av1', 'libsvtav1', 'librav1e'], rate: 'crf', pixelFormat: YUV420 },
  WEBM: { encoders: ['libvpx-vp9'], rate: 'crf', pixelFormat: YUV420, alphaPixelFormat: 'yuva420p' },
  THEORA: { encoders: ['libtheora'], rate: 'bitrate', pixelFormat: YUV420 },
  MPEG4: { encoders: ['mpeg4'], rate: 'bitrate', pixelFormat: YUV420 },
  MPEG2: { encoders: ['mpeg2video'], rate: 'bitrate', pixelFormat: YUV420 },
  MPEG1: { encoders: ['mpeg1video'], rate: 'bitrate', pixelFormat: YUV420 },
  FLASH: { encoders: ['flv'], rate: 'bitrate', pixelFormat: YUV420 },
  DV: { encoders: ['dvvideo'], rate: 'none', pixelFormat: 'yuv420p' },
  DNXHD: { encoders: ['dnxhd'], rate: 'none', pixelFormat: 'yuv422p' },
  PRORES: { encoders: ['prores_aw', 'prores_ks'], rate: 'none', pixelFormat: 'yuv422p10le', alphaPixelFormat: 'yuva444p10le' },
  PNG: { encoders: ['png'], rate: 'none', pixelFormat: 'rgb24', alphaPixelFormat: 'rgba' },
  QTRLE: { encoders: ['qtrle'], rate: 'none', pixelFormat: 'rgb24', alphaPixelFormat: 'argb' },
  FFV1: { encoders: ['ffv1'], rate: 'none', pixelFormat: 'yuv420p', alphaPixelFormat: 'yuva420p' },
  HUFFYUV: { encoders: ['huffyuv'], rate: 'none', pixelFormat: 'yuv422p', alphaPixelFormat: 'rgba' },
};

/** Blender's constant rate factors for H.264-like codecs, and the same qualities for H.265. */
const CRF: Record<string, { h264: number; h265: number }> = {
  LOSSLESS: { h264: 0, h265: 0 },
  PERC_LOSSLESS: { h264: 17, h265: 20 },
  HIGH: { h264: 20, h265: 24 },
  MEDIUM: { h264: 23, h265: 28 },
  LOW: { h264: 26, h265: 31 },
  VERYLOW: { h264: 29, h265: 34 },
  LOWEST: { h264: 32, h265: 37 },
};

/** Blender's encoding speeds, as the x264/x265 preset and the VP9 deadline. */
const SPEEDS: Record<string, { preset: string; deadline: string }> = {
  GOOD: { preset: 'medium', deadline: 'good' },
  BEST: { preset: 'slower', deadline: 'best' },
  REALTIME: { preset: 'superfast', deadline: 'realtime' },
};

/** How the node makes a job's video from its frames, stored with the render plan. */
export const videoPlanSchema = z.object({
  /** The video's file name, as Blender names it (the frame range in place of the `#`s). */
  fileName: z.string(),
  muxer: z.string(),
  encoder: z.string(),
  pixelFormat: z.string(),
  /** The frame rate as a fraction, e.g. [30000, 1001]. */
  frameRate: z.tuple([z.number().int().positive(), z.number().int().positive()]),
  /** FFmpeg's options of the encoder (quality, speed, keyframes), in order. */
  encoderOptions: z.array(z.string()),
  /** How the artist knows it: "MP4 (H.264)". */
  label: z.string(),
});
export type VideoPlan = z.infer<typeof videoPlanSchema>;

/** What {@link planVideo} decided: a plan, with notes for the artist, or why there will be frames only. */
export type VideoDecision = { ok: true; plan: VideoPlan; notes: string[] } | { ok: false; reason: string };

/** Input of {@link planVideo}. */
export interface VideoRequest {
  video: SceneVideo;
  /** The scene's frame rate and its base (Blender's fps / fps_base). */
  fps: number;
  fpsBase: number;
  /** The frames' file name pattern (`#`s stand for the frame number). */
  fileNamePattern: string;
  /** The first and last frame rendered. */
  firstFrame: number;
  lastFrame: number;
  /** The scene writes RGBA. */
  alpha: boolean;
  /** The encoders of the node's FFmpeg; null when the node has no FFmpeg. */
  encoders: readonly string[] | null;
}

/**
 * How the node will make the scene's video from the rendered frames, with the container, codec,
 * quality, speed, keyframe interval and frame rate Blender would use; or why it cannot (no FFmpeg on
 * the node, or none of its encoders for the codec), in which case the artist gets the frames only.
 */
export function planVideo(request: VideoRequest): VideoDecision {
  const { video } = request;
  const label = videoLabel(video);
  if (request.encoders === null) return { ok: false, reason: `This farm cannot make videos (it has no FFmpeg), so the ${label} video is not made: you get the frames as PNG images.` };
  const container = CONTAINERS[video.container];
  const codec = CODECS[video.codec];
  if (!container || !codec) return { ok: false, reason: `This farm does not make ${label} videos, so you get the frames as PNG images.` };
  const encoder = codec.encoders.find((name) => request.encoders!.includes(name));
  if (!encoder) return { ok: false, reason: `This farm's FFmpeg has no encoder for ${label} videos, so you get the frames as PNG images.` };
  const notes: string[] = [];
  if (video.audioCodec && video.audioCodec !== 'NONE') notes.push('The video is made without sound.');
  return {
    ok: true,
    notes,
    plan: {
      fileName: videoFileName(request.fileNamePattern, request.firstFrame, request.lastFrame) + container.extension,
      muxer: container.muxer,
      encoder,
      pixelFormat: request.alpha && codec.alphaPixelFormat ? codec.alphaPixelFormat : codec.pixelFormat,
      frameRate: frameRate(request.fps, request.fpsBase),
      encoderOptions: encoderOptions(video, codec, encoder),
      label,
    },
  };
}

/** The video's name: the frame range in place of the pattern's `#`s, padded as they are (Blender's rule). */
export function videoFileName(pattern: string, first: number, last: number): string {
  const run = /#+(?!.*#)/.exec(pattern);
  if (!run) return `${pattern}${pad(first, 4)}-${pad(last, 4)}`;
  const digits = run[0].length;
  return `${pattern.slice(0, run.index)}${pad(first, digits)}-${pad(last, digits)}${pattern.slice(run.index + digits)}`;
}

function pad(frame: number, digits: number): string {
  const text = String(Math.abs(frame)).padStart(digits, '0');
  return frame < 0 ? `-${text}` : text;
}

/** Blender's fps / fps_base as a reduced fraction (24 / 1.001 is 24000/1001). */
export function frameRate(fps: number, fpsBase: number): [number, number] {
  const scale = 1000;
  let num = Math.round(fps * scale);
  let den = Math.max(1, Math.round((fpsBase > 0 ? fpsBase : 1) * scale));
  const divisor = gcd(num, den);
  num /= divisor;
  den /= divisor;
  return [Math.max(1, num), den];
}

function gcd(a: number, b: number): number {
  return b === 0 ? Math.max(1, a) : gcd(b, a % b);
}

function encoderOptions(video: SceneVideo, codec: Codec, encoder: string): string[] {
  const options: string[] = [];
  const crf = video.quality ? CRF[video.quality] : undefined;
  if (codec.rate === 'crf' && crf) options.push(...qualityOptions(video.quality!, crf, encoder));
  else if (codec.rate !== 'none' && video.bitrateKbps) options.push('-b:v', `${Math.round(video.bitrateKbps)}k`);
  const speed = video.speed ? SPEEDS[video.speed] : undefined;
  if (speed && (encoder === 'libx264' || encoder === 'libx265')) options.push('-preset', speed.preset);
  if (speed && encoder === 'libvpx-vp9') options.push('-deadline', speed.deadline);
  if (video.keyframeInterval && codec.rate !== 'none') options.push('-g', String(video.keyframeInterval));
  if (video.maxBFrames !== null && codec.rate !== 'none') options.push('-bf', String(video.maxBFrames));
  return options;
}

function qualityOptions(quality: string, crf: { h264: number; h265: number }, encoder: string): string[] {
  const lossless = quality === 'LOSSLESS';
  if (encoder === 'libvpx-vp9') return lossless ? ['-lossless', '1'] : ['-crf', String(crf.h264), '-b:v', '0'];
  if (encoder === 'libx265') return ['-x265-params', lossless ? 'log-level=1:lossless=1' : 'log-level=1', ...(lossless ? [] : ['-crf', String(crf.h265)])];
  if (encoder === 'libsvtav1' || encoder === 'librav1e') return ['-qp', String(crf.h264)];
  return ['-crf', String(crf.h264)];
}
