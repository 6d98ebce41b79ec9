import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { startTestNode, uploadBytes, waitForJob, type TestNode } from '../../helpers/node';
import { requireRedis, startRedis, type TestRedis } from '../../helpers/redis';
import { completedChunks, startWorkerProcess, stopWorker, type WorkerProcess } from '../../helpers/workers';
import { probeBlender } from '../../../src/render-node/blender/probe';
import { runCli } from '../../helpers/cli';
import { cliSetup } from '../../cli/helpers/cli-setup';
import { WAITING_NOTES } from '../../../src/render-node/distributed/waiting-note';

const blenderPath = requireBlender();
const redisServer = requireRedis();

/** Tiny renders: few frames, few samples, a quarter of the scene's size. */
const TINY = { colorManagementPreset: 'default', sampleCount: 4, resolutionPercentage: 25 };

describe.skipIf(!blenderPath || !redisServer)('worker tags and blocks by hand (real Redis, two workers, Blender)', () => {
  let redis: TestRedis;
  let work: string;
  let scene: string;
  let t: TestNode;
  const running = new Map<string, WorkerProcess>();

  const start = async (name: string, tags?: string[]) => {
    running.set(name, await startWorkerProcess({ redis: redis.url, node: t.url, name, cacheDir: join(work, `cache-${name}`), blender: blenderPath!, threads: 1, tags }));
  };
  const stop = async (name: string) => {
    await stopWorker(running.get(name)!);
    running.delete(name);
  };
  const validated = async () => {
    const slug = await uploadBytes(t, 'scene.blend', await readFile(scene));
    const job = (await t.call('POST', '/jobs', { slug })).json;
    await t.call('POST', `/jobs/${job.id}/validate`);
    const done = await waitForJob(t, job.id, (j) => j.status !== 'validating');
    expect(done.status).toBe('validated');
    return job.id as string;
  };
  const render = async (id: string, config: Record<string, unknown> = {}) => {
    const res = await t.call('POST', `/jobs/${id}/render`, { requestedRenderConfig: { ...TINY, ...config } });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
  };
  const ended = (id: string) => waitForJob(t, id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 300_000);
  const frameWorkers = async (id: string) => (await t.call('GET', `/node/jobs/${id}/frames`)).json.frames.map((f: { frame: number; worker: string | null }) => [f.frame, f.worker]);
  const log = async (id: string) => (await t.call('GET', `/node/jobs/${id}/log?since=0`)).json.text as string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-tags-'));
    redis = await startRedis(redisServer!);
    const blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    t = await startTestNode({ blender, distributed: { redis: { url: redis.url }, chunkSize: 1, reconcileMs: 1000 } });
    scene = await makeSampleScene(work, { frames: 3 });
    await Promise.all([start('plain'), start('big', ['big-ram'])]);
  });

  afterAll(async () => {
    await Promise.allSettled([...running.values()].map((w) => stopWorker(w)));
    await t?.stop();
    await redis?.dispose();
  });

  it('a job requiring a tag only one worker has renders only there; its frames and its log say so', async () => {
    const view = (await t.call('GET', '/node/workers')).json;
    expect(view.workers.map((w: any) => [w.name, w.tags, w.state])).toEqual([
      ['big', ['big-ram'], 'idle'],
      ['plain', [], 'idle'],
    ]);
    const id = await validated();
    await render(id, { requires: ['big-ram'] });
    const done = await ended(id);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(done.requires).toEqual(['big-ram']);
    expect(await frameWorkers(id)).toEqual([
      [1, 'big'],
      [2, 'big'],
      [3, 'big'],
    ]);
    expect(new Set((await completedChunks(redis.url, id)).map((c) => c.returnvalue.worker))).toEqual(new Set(['big']));
    const text = await log(id);
    for (const frame of [1, 2, 3]) expect(text).toContain(`big renders frames ${frame}\n`);
    expect(text).not.toContain('plain renders');
  });

  it('waits, saying why, while the only worker with the tag is stopped, and completes on it once it is back', async () => {
    await stop('big');
    const offline = (await t.call('GET', '/node/workers')).json.workers.find((w: any) => w.name === 'big');
    expect(offline).toMatchObject({ state: 'offline', tags: ['big-ram'], current: null });
    const id = await validated();
    await render(id, { requires: ['big-ram'] });
    const waiting = await waitForJob(t, id, (j) => j.statusMessage !== null, 60_000);
    expect(waiting.statusMessage).toBe('Waiting for a render worker tagged big-ram');
    await new Promise((r) => setTimeout(r, 3000));
    const still = (await t.call('GET', `/jobs/${id}`)).json.data;
    expect(still.progress.completedFrames).toBe(0);
    expect(still.statusMessage).toBe('Waiting for a render worker tagged big-ram');

    await start('big', ['big-ram']);
    const done = await ended(id);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(done.statusMessage).toBeNull();
    expect((await frameWorkers(id)).map(([, worker]: [number, string]) => worker)).toEqual(['big', 'big', 'big']);
    const listed = (await t.call('GET', '/node/workers')).json.workers.filter((w: any) => w.name === 'big');
    expect(listed).toHaveLength(1);
    expect(listed[0].state).not.toBe('offline');
  });

  it('a worker blocked by hand for a job never renders it; with every worker blocked the job waits, saying so', async () => {
    const id = await validated();
    expect((await t.call('POST', '/node/workers/block', { worker: 'big', jobId: id })).status).toBe(200);
    const blocks = (await t.call('POST', '/node/workers/block', { worker: 'plain', jobId: id })).json.blocks;
    expect(blocks.map((b: any) => [b.worker, b.jobId, b.by])).toEqual([
      ['big', id, 'hand'],
      ['plain', id, 'hand'],
    ]);
    await render(id);
    const waiting = await waitForJob(t, id, (j) => j.statusMessage !== null, 60_000);
    expect(waiting.statusMessage).toBe(WAITING_NOTES.blocked);
    expect(waiting.progress.completedFrames).toBe(0);

    expect((await t.call('POST', '/node/workers/unblock', { worker: 'plain', jobId: id })).json.blocks).toEqual([{ worker: 'big', jobId: id, by: 'hand', since: expect.any(String) }]);
    const done = await ended(id);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect((await frameWorkers(id)).map(([, worker]: [number, string]) => worker)).toEqual(['plain', 'plain', 'plain']);
    expect(await log(id)).not.toContain('big renders');
    expect(running.get('big')!.output()).toContain('handing a chunk over to another worker');
    expect((await t.call('GET', '/node/workers')).json.blocks).toEqual([]);
  });

  it('when the tags a waiting job requires change, its waiting chunks are queued again with the new ones', async () => {
    const id = await validated();
    await t.call('POST', '/node/workers/block', { worker: 'big', jobId: id });
    await render(id, { requires: ['big-ram'] });
    const waiting = await waitForJob(t, id, (j) => j.statusMessage !== null, 60_000);
    expect(waiting.statusMessage).toBe(WAITING_NOTES.blocked);
    const queued = async () => (await t.call('GET', '/node/workers')).json.chunks;
    expect((await queued()).waiting + (await queued()).delayed).toBeGreaterThan(0);

    const changed = await t.call('POST', `/node/jobs/${id}/settings`, { requires: [] });
    expect(changed.json.requires).toEqual([]);
    const done = await ended(id);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect((await frameWorkers(id)).map(([, worker]: [number, string]) => worker)).toEqual(['plain', 'plain', 'plain']);
    expect(new Set((await completedChunks(redis.url, id)).map((c) => JSON.stringify(c.data.requires)))).toEqual(new Set(['[]']));
    expect(t.logs()).toContain('its waiting chunks were queued again with them');
  });
  it('renderdrop workers --json shows both workers with their tags and the frames each renders', async () => {
    const cli = await cliSetup(t.url, t.key);
    const id = await validated();
    await render(id, { sampleCount: 256, resolutionPercentage: 100 });
    const seen = new Map<string, { tags: string[]; jobId: string; frames: number[] }>();
    const until = Date.now() + 120_000;
    while (seen.size < 2 && Date.now() < until) {
      const run = await runCli(['workers', '--json'], { env: cli.env });
      expect(run.code, run.stderr).toBe(0);
      for (const w of JSON.parse(run.stdout).workers) if (w.current?.jobId === id) seen.set(w.name, { tags: w.tags, jobId: w.current.jobId, frames: w.current.frames });
    }
    expect([...seen.keys()].sort()).toEqual(['big', 'plain']);
    expect(seen.get('big')!.tags).toEqual(['big-ram']);
    expect(seen.get('plain')!.tags).toEqual([]);
    const text = await runCli(['workers'], { env: cli.env });
    expect(text.stdout).toMatch(/^big .*big-ram/m);
    const done = await ended(id);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    const byWorker = new Map<string, number[]>();
    for (const [frame, worker] of (await frameWorkers(id)) as [number, string][]) byWorker.set(worker, [...(byWorker.get(worker) ?? []), frame]);
    for (const [name, { frames }] of seen) expect(byWorker.get(name)).toEqual(expect.arrayContaining(frames));
  });
});
