import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadsSchema, jobFramesSchema } from '../../../src/shared/api';
import { probeBlender } from '../../../src/render-node/blender/probe';
import { sceneFrames, spreadOrder } from '../../../src/shared/render';
import { startRenderJob, startTestNode, waitForJob, type TestNode } from '../../helpers/node';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { decodePng } from '../../helpers/png-pixels';

const blenderPath = requireBlender();

async function fetchPng(url: string) {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/png');
  return decodePng(Buffer.from(await res.arrayBuffer()));
}

/** The path part of a signed URL, without its signature. */
const pathOf = (url: string) => new URL(url).pathname;
/** The order the 40 frames of the long job render in: across the shot first. */
const SPREAD = spreadOrder(sceneFrames(1, 40, 1));

/** Kill the Blender rendering a job (found by its job folder on its command line). */
async function killBlenderOf(dataDir: string, jobId: string): Promise<number> {
  let killed = 0;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmd = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmd.includes('blender') && cmd.includes(join(dataDir, 'jobs', jobId))) {
      process.kill(Number(entry), 'SIGKILL');
      killed++;
    }
  }
  return killed;
}

describe.skipIf(!blenderPath)('frame previews and the frames of jobs that ended early', () => {
  let t: TestNode;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-previews-'));
    const blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    t = await startTestNode({ blender });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('shows the latest frame of an EXR render while it renders, the last one after, and a preview per frame', async () => {
    const scene = await makeSampleScene(work, { frames: 4 });
    // Samples enough that each frame takes a while, so the job is seen rendering between frames on any machine.
    const jobId = await startRenderJob(t, 'exr.blend', await readFile(scene), { outputFormat: 'OPEN_EXR', sampleCount: 2048 });
    const seen = new Set<string>();
    const done = await waitForJob(t, jobId, (j) => {
      if (j.previewUrl && j.status === 'rendering') seen.add(pathOf(j.previewUrl));
      return ['completed', 'failed', 'canceled'].includes(j.status);
    });
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect([...seen].length).toBeGreaterThanOrEqual(1);
    for (const path of seen) {
      expect(path).toMatch(new RegExp(`^/storage/jobs/${jobId}/previews/sample_000[1-4]\\.png$`));
      expect(path).not.toContain(t.dataDir);
    }
    expect(pathOf(done.previewUrl)).toBe(`/storage/jobs/${jobId}/package/preview.png`);
    const finalPreview = await fetchPng(done.previewUrl);
    expect([finalPreview.width, finalPreview.height]).toEqual([64, 36]);

    const downloads = (await t.call('GET', `/jobs/${jobId}/downloads`)).json;
    expect(downloadsSchema.safeParse(downloads).success).toBe(true);
    expect(downloads.frameOutputs.map((o: any) => [o.frame, o.fileName])).toEqual([
      [1, 'sample_0001.exr'],
      [2, 'sample_0002.exr'],
      [3, 'sample_0003.exr'],
      [4, 'sample_0004.exr'],
    ]);
    const previews = await Promise.all(downloads.frameOutputs.map((o: any) => fetchPng(o.previewUrl)));
    for (const p of previews) expect([p.width, p.height]).toEqual([64, 36]);
    expect(previews.at(-1)!.data.equals(finalPreview.data)).toBe(true);
    expect(previews[0]!.data.some((b: number) => b > 0)).toBe(true);
    expect(JSON.stringify(downloads)).not.toContain(t.dataDir);
  });

  it('follows the latest frame while rendering, and lists the frames a failed render wrote before it stopped, each with its preview', async () => {
    const scene = await makeSampleScene(work, { frames: 40 });
    const jobId = await startRenderJob(t, 'long.blend', await readFile(scene), { sampleCount: 16 });
    const early = await waitForJob(t, jobId, (j) => j.progress.completedFrames >= 2);
    const later = await waitForJob(t, jobId, (j) => j.progress.completedFrames >= early.progress.completedFrames + 2);
    const whileRendering = await t.call('GET', `/node/jobs/${jobId}/frames`);
    expect(whileRendering.status).toBe(200);
    expect(jobFramesSchema.safeParse(whileRendering.json).success).toBe(true);
    expect(whileRendering.json).toMatchObject({ jobId, totalFrames: 40 });
    expect(whileRendering.json.frames.length).toBeGreaterThanOrEqual(later.progress.completedFrames);
    // Frames render across the shot first (1, 40, 20, 10, 30 ...); the node lists them by number.
    const listed = whileRendering.json.frames.map((f: any) => f.frame);
    expect(listed).toEqual(SPREAD.slice(0, listed.length).sort((a, b) => a - b));
    expect(whileRendering.json.frames.slice(0, 1).map((f: any) => [f.frame, f.fileName])).toEqual([[1, 'sample_0001.png']]);
    expect(whileRendering.json.frames.at(-1).fileName).toBe('sample_0040.png');
    expect((await fetchPng(whileRendering.json.frames[1].previewUrl)).width).toBe(64);
    expect((await t.call('GET', `/jobs/${jobId}/downloads`)).json.frameOutputs).toEqual([]);
    expect(await killBlenderOf(t.dataDir, jobId)).toBeGreaterThanOrEqual(1);
    const frameOf = (job: any) => Number(/sample_(\d{4})\.png$/.exec(pathOf(job.previewUrl))![1]);
    expect(frameOf(early)).toBe(SPREAD[early.progress.completedFrames - 1]);
    expect(frameOf(later)).toBe(SPREAD[later.progress.completedFrames - 1]);
    const failed = await waitForJob(t, jobId, (j) => ['completed', 'failed', 'canceled'].includes(j.status));
    expect(failed.status).toBe('failed');
    const rendered = failed.progress.completedFrames;
    expect(rendered).toBeGreaterThanOrEqual(2);
    expect(rendered).toBeLessThan(40);
    expect(pathOf(failed.previewUrl)).toMatch(/\/previews\/sample_\d{4}\.png$/);

    const downloads = (await t.call('GET', `/jobs/${jobId}/downloads`)).json;
    expect(downloads.frameOutputs).toHaveLength(rendered);
    expect(downloads.frames).toHaveLength(rendered);
    expect(downloads.transforms.framesZip).toBeNull();
    expect(downloads.frameOutputs.map((o: any) => o.frame)).toEqual(SPREAD.slice(0, rendered).sort((a, b) => a - b));
    const frame = await fetch(downloads.frameOutputs[0].url);
    expect(frame.status).toBe(200);
    expect(decodePng(Buffer.from(await frame.arrayBuffer())).width).toBe(64);
    const preview = await fetchPng(downloads.frameOutputs.at(-1).previewUrl);
    expect(preview.width).toBe(64);
  });
});
