import { copyFile, link, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FfmpegTools } from './ffmpeg-tools';
import { runTool } from './ffmpeg-tools';
import type { VideoPlan } from './video-plan';

/** A video that could not be made or did not come out whole; the message is for a person. */
export class VideoError extends Error {
  override readonly name = 'VideoError';
}

/** What {@link encodeVideo} needs: the tools, the plan, the frames in order, and where things go. */
export interface EncodeVideoOptions {
  tools: FfmpegTools;
  plan: VideoPlan;
  /** The frame files, in frame order. */
  frames: readonly string[];
  /** The finished video (written under another name first, renamed when checked). */
  outPath: string;
  /** A scratch folder for the numbered frame list (removed afterwards). */
  workDir: string;
  /** The size of the frames, which the video must have (the encoder may round it up to even). */
  size: { width: number; height: number };
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/** What a checked video holds. */
export interface MadeVideo {
  path: string;
  bytes: number;
  frames: number;
  width: number;
  height: number;
}

/** FFmpeg's arguments to make `plan`'s video from numbered PNG frames in `inputPattern`. */
export function ffmpegArguments(plan: VideoPlan, inputPattern: string, outPath: string): string[] {
  const subsampled = /^yuva?4[02]/.test(plan.pixelFormat);
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-framerate',
    `${plan.frameRate[0]}/${plan.frameRate[1]}`,
    '-start_number',
    '1',
    '-i',
    inputPattern,
    '-an',
    ...(subsampled ? ['-vf', 'pad=ceil(iw/2)*2:ceil(ih/2)*2'] : []),
    '-c:v',
    plan.encoder,
    ...plan.encoderOptions,
    '-pix_fmt',
    plan.pixelFormat,
    '-f',
    plan.muxer,
    outPath,
  ];
}

/**
 * Makes a job's video from its frames: lists them under consecutive numbers (hard links, so frame
 * ranges with gaps or steps make a video without holes), runs FFmpeg, then checks with ffprobe that
 * the video holds every frame at the frames' size before putting it in place.
 */
export async function encodeVideo(options: EncodeVideoOptions): Promise<MadeVideo> {
  const { tools, plan, frames, workDir } = options;
  if (frames.length === 0) throw new VideoError('There are no frames to make the video from.');
  await rm(workDir, { recursive: true, force: true });
  await mkdir(workDir, { recursive: true });
  const partial = `${options.outPath}.part`;
  try {
    for (const [i, frame] of frames.entries()) {
      const numbered = join(workDir, `${String(i + 1).padStart(6, '0')}.png`);
      await link(frame, numbered).catch(() => copyFile(frame, numbered));
    }
    const run = await runTool(tools.ffmpeg, ffmpegArguments(plan, join(workDir, '%06d.png'), partial), { timeoutMs: 6 * 3600_000, signal: options.signal, env: options.env });
    if (options.signal?.aborted) throw new VideoError('Making the video was stopped.');
    if (run.code !== 0) throw new VideoError(`FFmpeg could not make the ${plan.label} video (${firstLine(run.stderr) || `exit code ${run.code}`}).`);
    const made = await probeVideo(tools, partial, options);
    checkVideo(made, frames.length, options.size, plan.label);
    await rename(partial, options.outPath);
    return { ...made, path: options.outPath };
  } finally {
    await rm(workDir, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

/** What ffprobe reads of a video's first video stream: its packets (one per frame) and size. */
async function probeVideo(tools: FfmpegTools, path: string, options: Pick<EncodeVideoOptions, 'signal' | 'env'>): Promise<MadeVideo> {
  const args = ['-v', 'error', '-count_packets', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_packets,width,height', '-of', 'json', path];
  const run = await runTool(tools.ffprobe, args, { timeoutMs: 600_000, signal: options.signal, env: options.env });
  const stream = run.code === 0 ? parseStream(run.stdout) : null;
  if (!stream) throw new VideoError(`The video could not be read back (${firstLine(run.stderr) || 'ffprobe found no video stream'}).`);
  return { path, bytes: (await stat(path)).size, ...stream };
}

function parseStream(json: string): { frames: number; width: number; height: number } | null {
  try {
    const stream = (JSON.parse(json) as { streams?: { nb_read_packets?: string; width?: number; height?: number }[] }).streams?.[0];
    if (!stream) return null;
    return { frames: Number(stream.nb_read_packets), width: Number(stream.width), height: Number(stream.height) };
  } catch {
    return null;
  }
}

/** Refuses a video that lacks frames or has another size than the frames (beyond rounding up to even). */
export function checkVideo(made: Pick<MadeVideo, 'frames' | 'width' | 'height'>, frames: number, size: { width: number; height: number }, label: string): void {
  if (made.frames !== frames) throw new VideoError(`The ${label} video holds ${made.frames} frames instead of ${frames}.`);
  const fits = (got: number, want: number) => got === want || got === want + (want % 2);
  if (!fits(made.width, size.width) || !fits(made.height, size.height)) {
    throw new VideoError(`The ${label} video is ${made.width}x${made.height} instead of ${size.width}x${size.height}.`);
  }
}

function firstLine(text: string): string {
  return text.split(/\r?\n/).map((line) => line.trim()).find((line) => line !== '') ?? '';
}
