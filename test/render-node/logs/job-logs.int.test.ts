import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { startRenderJob, startTestNode, uploadBytes, waitForJob, type TestNode } from '../../helpers/node';
import { requireRedis, startRedis, type TestRedis } from '../../helpers/redis';
import { startWorkerProcess, stopWorker, type WorkerProcess } from '../../helpers/workers';
import { probeBlender, type BlenderInfo } from '../../../src/render-node/blender/probe';
import { jobLogSchema } from '../../../src/shared/api';

const blenderPath = requireBlender();
const redisServer = requireRedis();
const ENDED = ['completed', 'failed', 'canceled'];

async function logOf(t: TestNode, id: string, since = 0) {
  const res = await t.call('GET', `/node/jobs/${id}/log?since=${since}`);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return jobLogSchema.parse(res.json);
}

/** No absolute folder of the node, the test's scratch space or the home folder is left in the log. */
function expectNoPrivatePaths(text: string, ...folders: string[]) {
  for (const folder of [...folders, homedir(), tmpdir()]) expect(text).not.toContain(folder);
}

describe.skipIf(!blenderPath)("the node keeps each job's Blender output (real Blender)", () => {
  let t: TestNode;
  let work: string;
  let blender: BlenderInfo;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-logs-'));
    blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    t = await startTestNode({ blender });
  });
  afterAll(async () => {
    await t?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('a completed job: the analysis and the render, paths replaced, followable from an offset', async () => {
    const scene = await readFile(await makeSampleScene(work, {}));
    const id = await startRenderJob(t, 'shot.blend', scene, { sampleCount: 1 });
    const during = await logOf(t, id);
    const done = await waitForJob(t, id, (j) => ENDED.includes(j.status));
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    const log = await logOf(t, id);
    expect(log.cutBytes).toBe(0);
    const lines = log.text.split('\n');
    const analysis = lines.indexOf('── Scene analysis ──');
    const render = lines.indexOf('── Render ──');
    expect(analysis).toBe(0);
    expect(render).toBeGreaterThan(analysis);
    // The sample scene is read without starting Blender (src/render-node/scene/scene-analysis.ts), which the section says.
    expect(lines.slice(analysis, render)).toContain('Scene settings read from the .blend without starting Blender.');
    expect(lines.slice(render).some((l) => /^Fra:1 /.test(l))).toBe(true);
    expect(lines.slice(render).some((l) => /^Saved: '<job>\/frames\/.*sample_0003\.png'/.test(l))).toBe(true);
    expect(log.text).toContain('<job>/scene/shot.blend');
    expectNoPrivatePaths(log.text, t.dataDir, work);
    expect(log.text.startsWith(during.text)).toBe(true);
    const rest = await logOf(t, id, during.nextOffset);
    expect(during.text + rest.text).toBe(log.text);
    expect((await logOf(t, id, log.nextOffset)).text).toBe('');
  });

  it('a job failed in the render (out of time): Blender lines, then the reason', async () => {
    const limited = await startTestNode({ blender, limits: { jobTimeLimitMs: 6000 } });
    try {
      const slow = await readFile(await makeSampleScene(work, { frames: 40, everySample: true, name: 'slow.blend' }));
      const id = await startRenderJob(limited, 'slow.blend', slow, { sampleCount: 4000 });
      const done = await waitForJob(limited, id, (j) => ENDED.includes(j.status));
      expect(done.failedReason?.name, done.status).toBe('TimeLimitExceeded');
      await checkFailedLog(limited, id, done.failedReason.message);
    } finally {
      await limited.stop();
    }
  });

  async function checkFailedLog(node: TestNode, id: string, reason: string) {
    const log = await logOf(node, id);
    const lines = log.text.trimEnd().split('\n');
    expect(lines.some((l) => /^Fra:1 /.test(l)), log.text.slice(-2000)).toBe(true);
    expect(lines.at(-1)).toBe(`── Failed: ${reason} ──`);
    expectNoPrivatePaths(log.text, node.dataDir, work);
  }

  it('a damaged scene: the failure ends the log; unknown jobs, bad offsets and missing keys answer as the API does', async () => {
    const full = await readFile(await makeSampleScene(work, {}));
    const slug = await uploadBytes(t, 'broken.blend', full.subarray(0, Math.floor(full.length / 3)));
    const job = (await t.call('POST', '/jobs', { slug })).json;
    await t.call('POST', `/jobs/${job.id}/validate`);
    const failed = await waitForJob(t, job.id, (j) => j.status !== 'validating');
    expect(failed.status).toBe('failed');
    const log = await logOf(t, job.id);
    expect(log.text.trimEnd().split('\n').at(-1)).toBe(`── Failed: ${failed.failedReason.message} ──`);
    // A part of the work that printed nothing has no heading.
    if (!log.text.includes('── Scene analysis ──')) expect(log.text).toBe(`── Failed: ${failed.failedReason.message} ──\n`);
    expectNoPrivatePaths(log.text, t.dataDir, work);
    expect((await t.call('GET', '/node/jobs/6a3c0f0e-0d8e-4c55-9a53-9d1a1f0c0c0c/log')).status).toBe(404);
    expect((await t.call('GET', `/node/jobs/${job.id}/log?since=-1`)).json.error.code).toBe('invalid_query');
    const res = await fetch(`${t.api}/node/jobs/${job.id}/log`);
    expect(res.status).toBe(401);
  });
});

describe.skipIf(!blenderPath || !redisServer)("render workers send their Blender lines to the node (real Redis, workers, Blender)", () => {
  let redis: TestRedis;
  let t: TestNode;
  let work: string;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-logs-dist-'));
    redis = await startRedis(redisServer!);
    const blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    t = await startTestNode({ blender, distributed: { redis: { url: redis.url }, chunkSize: 1, reconcileMs: 1000 } });
    for (const name of ['alpha', 'beta']) {
      workers.push(await startWorkerProcess({ redis: redis.url, node: t.url, name, cacheDir: join(work, `cache-${name}`), blender: blenderPath!, threads: 1 }));
    }
  }, 180_000);
  afterAll(async () => {
    await Promise.allSettled(workers.map((w) => stopWorker(w)));
    await t?.stop();
    await redis?.dispose();
    await rm(work, { recursive: true, force: true });
  });

  it("each worker's lines are in the job's log under its name, without the worker's folders", async () => {
    const scene = await readFile(await makeSampleScene(work, { frames: 6 }));
    const id = await startRenderJob(t, 'shot.blend', scene, { sampleCount: 1 });
    const done = await waitForJob(t, id, (j) => ENDED.includes(j.status), 240_000);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    const { text } = await logOf(t, id);
    const lines = text.split('\n');
    expect(lines).toContain('── Render on the render workers ──');
    for (const name of ['alpha', 'beta']) {
      const own = lines.filter((l) => l.startsWith(`[${name}] `));
      expect(own.some((l) => / Fra:\d+ /.test(l)), `${name}: ${own.slice(0, 5).join(' / ')}`).toBe(true);
    }
    expect(text).toContain('<worker>/');
    expectNoPrivatePaths(text, t.dataDir, work);
  }, 300_000);
});
