import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { startRenderJob, startTestNode, waitForJob, type TestNode } from '../helpers/node';
import { decodePng } from '../helpers/png-pixels';
import { putJobInStatus } from '../helpers/job-status';
import { probeBlender } from '../../src/render-node/blender/probe';

const blenderPath = requireBlender();
const ended = (j: { status: string }) => ['completed', 'failed', 'canceled'].includes(j.status);

/** Each frame file of a job's folder: its inode, modification time and decoded pixels. */
async function framesOf(t: TestNode, jobId: string): Promise<Map<number, { path: string; ino: number; mtimeMs: number; pixels: Buffer }>> {
  const out = new Map<number, { path: string; ino: number; mtimeMs: number; pixels: Buffer }>();
  for (const f of t.node.ctx.jobs.frames(jobId)) {
    const st = await stat(f.filePath);
    out.set(f.frame, { path: f.filePath, ino: st.ino, mtimeMs: st.mtimeMs, pixels: decodePng(await readFile(f.filePath)).data });
  }
  return out;
}

describe.skipIf(!blenderPath)('requeue in the same job, on the embedded node with real Blender', () => {
  let t: TestNode;
  let work: string;
  let scene: Buffer;
  const hooks: string[] = [];
  let hookServer: ReturnType<typeof createServer>;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-requeue-'));
    scene = await readFile(await makeSampleScene(work, { frames: 4 }));
    hookServer = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        hooks.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', () => r()));
    const port = (hookServer.address() as { port: number }).port;
    const blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    t = await startTestNode({ blender, webhook: { url: `http://127.0.0.1:${port}/hook`, secret: 'whsec-test', retryDelaysMs: [100] } });
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    hookServer?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('renders frame 2 again inside the completed job, pixel-identical, leaving the other frames untouched', async () => {
    const id = await startRenderJob(t, 'sample.blend', scene, {});
    const first = await waitForJob(t, id, ended, 240_000);
    expect(first.status, JSON.stringify(first.failedReason)).toBe('completed');
    const before = await framesOf(t, id);
    expect([...before.keys()]).toEqual([1, 2, 3, 4]);
    const hooksBefore = hooks.length;

    const answer = await t.call('POST', `/node/jobs/${id}/requeue`, { frames: ['2'] });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json).toMatchObject({ status: 'booting', failedReason: null, progress: { completedFrames: 3, totalFrames: 4 } });
    expect(answer.json.timeline.at(-1)).toMatchObject({ status: 'booting', detail: 'requeued frame 2' });

    const again = await waitForJob(t, id, ended, 240_000);
    expect(again.status, JSON.stringify(again.failedReason)).toBe('completed');
    expect(again.progress).toEqual({ completedFrames: 4, totalFrames: 4 });
    expect(again.timeline.map((e: { status: string }) => e.status).slice(-5)).toEqual(['completed', 'booting', 'rendering', 'finalizing', 'completed']);

    const after = await framesOf(t, id);
    expect([...after.keys()]).toEqual([1, 2, 3, 4]);
    for (const frame of [1, 3, 4]) {
      expect({ ino: after.get(frame)!.ino, mtimeMs: after.get(frame)!.mtimeMs }, `frame ${frame} untouched`).toEqual({ ino: before.get(frame)!.ino, mtimeMs: before.get(frame)!.mtimeMs });
    }
    const two = { before: before.get(2)!, after: after.get(2)! };
    expect(two.after.ino !== two.before.ino || two.after.mtimeMs > two.before.mtimeMs, 'frame 2 was written again').toBe(true);
    expect(two.after.pixels.equals(two.before.pixels), 'frame 2 is pixel-identical to its first render').toBe(true);

    const downloads = (await t.call('GET', `/jobs/${id}/downloads`)).json;
    expect(downloads.frameOutputs.map((o: { fileName: string }) => o.fileName)).toEqual([1, 2, 3, 4].map((f) => `sample_000${f}.png`));
    const zip = await fetch(downloads.transforms.framesZip);
    expect(zip.status).toBe(200);
    const listing = Buffer.from(await zip.arrayBuffer()).toString('latin1');
    for (const f of [1, 2, 3, 4]) expect(listing, `the rebuilt zip holds frame ${f}`).toContain(`sample_000${f}.png`);
    for (let i = 0; i < 50 && hooks.length === hooksBefore; i++) await new Promise((r) => setTimeout(r, 100));
    expect(hooks.slice(hooksBefore).map((h) => JSON.parse(h).jobId)).toEqual([id]);
  }, 600_000);

  it('renders the frames a failed job lacks with failed: true, and refuses while it renders', async () => {
    const id = await startRenderJob(t, 'sample.blend', scene, { frameRanges: ['1-3'] });
    expect((await waitForJob(t, id, ended, 240_000)).status).toBe('completed');
    // As a render that crashed on frame 3 leaves it: frame 3 never written, the job failed.
    const three = t.node.ctx.jobs.frames(id).find((f) => f.frame === 3)!;
    t.node.ctx.jobs.deleteFrames(id, [3]);
    await rm(three.filePath);
    putJobInStatus(t.node.ctx, id, 'failed', { failedReason: { name: 'RenderFailed', type: 'render', message: 'Blender stopped (exit code 139) with 1 of 3 frames not written.' } });
    const kept = await framesOf(t, id);

    const answer = await t.call('POST', `/node/jobs/${id}/requeue`, { failed: true });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.timeline.at(-1)).toMatchObject({ status: 'booting', detail: 'requeued frame 3' });
    const busy = await t.call('POST', `/node/jobs/${id}/requeue`, { frames: ['1'] });
    expect(busy.status).toBe(409);
    expect(busy.json.error.message).toMatch(/still rendering|being requeued|still stopping/);

    const done = await waitForJob(t, id, ended, 240_000);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(done.failedReason).toBeNull();
    const after = await framesOf(t, id);
    expect([...after.keys()]).toEqual([1, 2, 3]);
    for (const frame of [1, 2]) expect(after.get(frame)!.ino).toBe(kept.get(frame)!.ino);
    expect((await t.call('POST', `/node/jobs/${id}/requeue`, { failed: true })).json.error.code).toBe('nothing_to_requeue');
  }, 600_000);
});
