import { describe, expect, it } from 'vitest';
import type { SceneVideo } from '../../../src/shared/api';
import { checkVideo, ffmpegArguments } from '../../../src/render-node/video/encode-video';
import { videoEncodersOf } from '../../../src/render-node/video/ffmpeg-tools';
import { frameRate, planVideo, videoFileName, type VideoRequest } from '../../../src/render-node/video/video-plan';
import { chooseVideo } from '../../../src/render-node/plan/video-choice';
import { sampleAnalysis } from '../../fixtures/analysis';

const H264: SceneVideo = { container: 'MPEG4', codec: 'H264', quality: 'MEDIUM', speed: 'GOOD', bitrateKbps: 6000, keyframeInterval: 18, maxBFrames: null, audioCodec: 'NONE' };
const ENCODERS = ['libx264', 'libvpx-vp9', 'png', 'ffv1', 'mpeg2video'];

function request(video: SceneVideo, extra: Partial<VideoRequest> = {}): VideoRequest {
  return { video, fps: 24, fpsBase: 1, fileNamePattern: 'shot_####', firstFrame: 1, lastFrame: 120, alpha: false, encoders: ENCODERS, ...extra };
}

describe('how the node makes a scene\'s video', () => {
  it('uses the scene\'s container, codec, quality, speed and keyframe interval as Blender does', () => {
    const decision = planVideo(request(H264));
    expect(decision).toEqual({
      ok: true,
      notes: [],
      plan: { fileName: 'shot_0001-0120.mp4', muxer: 'mp4', encoder: 'libx264', pixelFormat: 'yuv420p', frameRate: [24, 1], encoderOptions: ['-crf', '23', '-preset', 'medium', '-g', '18'], label: 'MP4 (H.264)' },
    });
  });

  it('gives VP9 its constant quality with no bitrate, and lossless as VP9 says it', () => {
    const vp9 = { ...H264, container: 'WEBM', codec: 'WEBM', quality: 'HIGH', speed: 'BEST' };
    expect(planVideo(request(vp9))).toMatchObject({ ok: true, plan: { muxer: 'webm', encoder: 'libvpx-vp9', fileName: 'shot_0001-0120.webm', encoderOptions: ['-crf', '20', '-b:v', '0', '-deadline', 'best', '-g', '18'] } });
    expect(planVideo(request({ ...vp9, quality: 'LOSSLESS' }))).toMatchObject({ ok: true, plan: { encoderOptions: ['-lossless', '1', '-deadline', 'best', '-g', '18'] } });
  });

  it('uses the bitrate where the codec has no constant quality, and no rate at all for lossless codecs', () => {
    expect(planVideo(request({ ...H264, container: 'MPEG2', codec: 'MPEG2', quality: 'NONE' }))).toMatchObject({ ok: true, plan: { fileName: 'shot_0001-0120.dvd', encoderOptions: ['-b:v', '6000k', '-g', '18'] } });
    expect(planVideo(request({ ...H264, container: 'MKV', codec: 'FFV1' }, { alpha: true }))).toMatchObject({ ok: true, plan: { encoder: 'ffv1', pixelFormat: 'yuva420p', encoderOptions: [] } });
  });

  it('says the video is made without sound when the scene has an audio codec', () => {
    expect(planVideo(request({ ...H264, audioCodec: 'AAC' }))).toMatchObject({ ok: true, notes: ['The video is made without sound.'] });
  });

  it('says why there are frames only: no FFmpeg, no encoder for the codec, a codec it does not know', () => {
    expect(planVideo(request(H264, { encoders: null }))).toEqual({ ok: false, reason: 'This farm cannot make videos (it has no FFmpeg), so the MP4 (H.264) video is not made: you get the frames as PNG images.' });
    expect(planVideo(request({ ...H264, codec: 'H265' }))).toEqual({ ok: false, reason: "This farm's FFmpeg has no encoder for MP4 (H.265) videos, so you get the frames as PNG images." });
    expect(planVideo(request({ ...H264, codec: 'CINEPAK' }))).toEqual({ ok: false, reason: 'This farm does not make MP4 (CINEPAK) videos, so you get the frames as PNG images.' });
  });

  it('names the video after the frames, the range in place of the #s (padded as they are)', () => {
    expect(videoFileName('shot_####', 1, 120)).toBe('shot_0001-0120');
    expect(videoFileName('shot_##_v2', 5, 9)).toBe('shot_05-09_v2');
    expect(videoFileName('clip', 1, 10)).toBe('clip0001-0010');
    expect(videoFileName('f_######', 1001, 1100)).toBe('f_001001-001100');
  });

  it('writes Blender\'s frame rate and base as an exact fraction', () => {
    expect(frameRate(24, 1)).toEqual([24, 1]);
    expect(frameRate(30, 1.001)).toEqual([30000, 1001]);
    expect(frameRate(24, 1.001)).toEqual([24000, 1001]);
    expect(frameRate(25, 2)).toEqual([25, 2]);
  });

  it('turns a plan into FFmpeg arguments: numbered PNG frames in, no sound, even size for 4:2:0', () => {
    const decision = planVideo(request(H264));
    if (!decision.ok) throw new Error(decision.reason);
    expect(ffmpegArguments(decision.plan, '/w/%06d.png', '/p/shot.mp4.part')).toEqual([
      '-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-framerate', '24/1', '-start_number', '1', '-i', '/w/%06d.png', '-an',
      '-vf', 'pad=ceil(iw/2)*2:ceil(ih/2)*2', '-c:v', 'libx264', '-crf', '23', '-preset', 'medium', '-g', '18', '-pix_fmt', 'yuv420p', '-f', 'mp4', '/p/shot.mp4.part',
    ]);
  });

  it('refuses a video that lacks frames or has another size than the frames (rounding up to even passes)', () => {
    expect(() => checkVideo({ frames: 6, width: 64, height: 36 }, 6, { width: 64, height: 36 }, 'MP4 (H.264)')).not.toThrow();
    expect(() => checkVideo({ frames: 6, width: 64, height: 36 }, 6, { width: 63, height: 35 }, 'MP4 (H.264)')).not.toThrow();
    expect(() => checkVideo({ frames: 5, width: 64, height: 36 }, 6, { width: 64, height: 36 }, 'MP4 (H.264)')).toThrow('The MP4 (H.264) video holds 5 frames instead of 6.');
    expect(() => checkVideo({ frames: 6, width: 32, height: 18 }, 6, { width: 64, height: 36 }, 'MP4 (H.264)')).toThrow('The MP4 (H.264) video is 32x18 instead of 64x36.');
  });

  it('reads the video encoders from `ffmpeg -encoders`', () => {
    const listing = ['Encoders:', ' V..... = Video', ' A..... = Audio', ' ------', ' V....D libx264              libx264 H.264', ' VF.... ffv1                 FFmpeg video codec #1', ' A....D aac                  AAC'].join('\n');
    expect(videoEncodersOf(listing)).toEqual(['libx264', 'ffv1']);
  });
});

describe('the video in a render plan', () => {
  const analysis = sampleAnalysis({ video: H264, outputFormat: 'FFMPEG' });

  it('makes the scene\'s video unless an image format was asked', () => {
    expect(chooseVideo({ colorManagementPreset: 'default' }, analysis, ENCODERS, [1, 2, 3])).toMatchObject({ value: { label: 'MP4 (H.264)' }, framesOnly: null });
    expect(chooseVideo({ colorManagementPreset: 'default', outputFormat: 'OPEN_EXR' }, analysis, ENCODERS, [1, 2, 3])).toEqual({ value: null, adjustments: [], framesOnly: null });
  });

  it('makes an MP4 (H.264) of an image scene when a video is asked, and says so when it cannot', () => {
    const images = sampleAnalysis({ video: null });
    expect(chooseVideo({ colorManagementPreset: 'default', videoOutput: true }, images, ENCODERS, [1, 2])).toMatchObject({ value: { label: 'MP4 (H.264)', encoder: 'libx264' } });
    expect(chooseVideo({ colorManagementPreset: 'default', videoOutput: true }, images, null, [1, 2])).toMatchObject({ value: null, framesOnly: expect.stringContaining('has no FFmpeg') });
    expect(chooseVideo({ colorManagementPreset: 'default' }, images, ENCODERS, [1, 2]).value).toBeNull();
  });
});
