import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/core/api/api-client';
import { downloadJobOutputs } from '../../src/core/download';
import { probeBlender } from '../../src/render-node/blender/probe';
import { runBlender } from '../../src/render-node/blender/run-blender';
import { blendersUnderTest } from '../helpers/blenders';
import { ROOT } from '../helpers/cli';
import { startRenderJob, startTestNode, waitForJob, type TestNode } from '../helpers/node';
import { decodePng } from '../helpers/png-pixels';
import { requireTool } from '../helpers/tools';

const ffprobe = requireTool('ffprobe');
const ffmpeg = requireTool('ffmpeg');
const SCRIPT = join(ROOT, 'test', 'fixtures', 'blender', 'make-video-scene.py');

/** What ffprobe says of a video's first video stream: frames (packets), size, frame rate, codec and container. */
function probe(path: string): { frames: number; width: number; height: number; rate: string; codec: string; container: string } {
  const run = spawnSync(ffprobe!, ['-v', 'error', '-count_packets', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_packets,width,height,r_frame_rate,codec_name:format=format_name', '-of', 'json', path], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  const json = JSON.parse(run.stdout) as { streams: [{ nb_read_packets: string; width: number; height: number; r_frame_rate: string; codec_name: string }]; format: { format_name: string } };
  const [s] = json.streams;
  return { frames: Number(s.nb_read_packets), width: s.width, height: s.height, rate: s.r_frame_rate, codec: s.codec_name, container: json.format.format_name };
}

async function makeVideoScene(blender: string, out: string, container: string, codec: string, fps: number, fpsBase: number): Promise<Buffer> {
  const run = await runBlender({ blenderPath: blender, args: ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python', SCRIPT, '--', out, container, codec, String(fps), String(fpsBase)], timeoutMs: 170_000 });
  expect(run.exitCode, run.stdout.slice(-2000) + run.stderr.slice(-2000)).toBe(0);
  return readFile(out);
}

const CASES = [
  { name: 'an MP4 (H.264) at 24 fps', container: 'MPEG4', codec: 'H264', fps: 24, fpsBase: 1, file: 'clip_0001-0006.mp4', probed: { codec: 'h264', rate: '24/1', container: 'mov,mp4,m4a,3gp,3g2,mj2' } },
  { name: 'a Matroska (VP9) at 29.97 fps', container: 'MKV', codec: 'WEBM', fps: 30, fpsBase: 1.001, file: 'clip_0001-0006.mkv', probed: { codec: 'vp9', rate: '30000/1001', container: 'matroska,webm' } },
];

for (const blender of blendersUnderTest()) {
  describe.skipIf(!blender.path || !ffprobe || !ffmpeg)(`a scene whose output is a video, saved by Blender ${blender.series} (real node, real Blender, real FFmpeg)${blender.missing ? ` (skipped: ${blender.missing})` : ''}`, () => {
    let work: string;
    let t: TestNode;
    let bare: TestNode;

    beforeAll(async () => {
      work = await mkdtemp(join(tmpdir(), 'rd-video-'));
      const info = await probeBlender(blender.path!, { timeoutMs: 60_000 });
      t = await startTestNode({ blender: info });
      bare = await startTestNode({ blender: info, ffmpegPath: null });
    }, 120_000);
    afterAll(async () => {
      await Promise.all([t?.stop(), bare?.stop()]);
      if (work) await rm(work, { recursive: true, force: true });
    });

    for (const c of CASES) {
      it(`comes back as its PNG frames and ${c.name} holding every frame at the scene's size and frame rate`, async () => {
        const scene = await makeVideoScene(blender.path!, join(work, `${c.container}.blend`), c.container, c.codec, c.fps, c.fpsBase);
        const id = await startRenderJob(t, 'clip.blend', scene, {});
        const job = await waitForJob(t, id, (j) => j.status === 'completed' || j.status === 'failed', 170_000);
        expect(job.status, JSON.stringify(job.failedReason)).toBe('completed');
        expect(job.analysis.video).toMatchObject({ container: c.container, codec: c.codec });
        expect(job.analysis.warnings.map((w: { code: string }) => w.code)).not.toContain('video-frames-only');
        expect(job.finalConfig).toMatchObject({ outputFormat: 'PNG', outputMediaType: 'VIDEO', videoOutput: true });

        const dir = join(work, `${c.container}-download`);
        const client = new ApiClient({ baseUrl: t.url, apiKey: t.key });
        const result = await downloadJobOutputs({ client, jobId: id, dir });
        const names = (await readdir(dir)).sort();
        expect(names).toEqual([...[1, 2, 3, 4, 5, 6].map((n) => `clip_000${n}.png`), c.file].sort());
        expect(result.files.map((f) => f.relativePath)).toContain(c.file);
        const frame = decodePng(await readFile(join(dir, 'clip_0001.png')));
        expect([frame.width, frame.height]).toEqual([64, 36]);
        expect(probe(join(dir, c.file))).toEqual({ frames: 6, width: 64, height: 36, ...c.probed });
      });
    }

    it('on a farm without FFmpeg, says before the render that only frames come back, and sends the frames', async () => {
      const scene = await makeVideoScene(blender.path!, join(work, 'bare.blend'), 'MPEG4', 'H264', 24, 1);
      const id = await startRenderJob(bare, 'clip.blend', scene, {});
      const validated = (await bare.call('GET', `/jobs/${id}`)).json.data;
      expect(validated.analysis.warnings).toContainEqual({
        code: 'video-frames-only',
        message: 'This farm cannot make videos (it has no FFmpeg), so the MP4 (H.264) video is not made: you get the frames as PNG images.',
      });
      const job = await waitForJob(bare, id, (j) => j.status === 'completed' || j.status === 'failed', 170_000);
      expect(job.status).toBe('completed');
      expect(job.finalConfig).toMatchObject({ outputFormat: 'PNG', outputMediaType: 'IMAGE', videoOutput: false });
      const downloads = (await bare.call('GET', `/jobs/${id}/downloads`)).json;
      expect(downloads.frameOutputs).toHaveLength(6);
      expect(downloads.transforms.video).toBeNull();
    });
  });
}
