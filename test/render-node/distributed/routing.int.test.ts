import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { startTestNode, uploadBytes, waitForJob, type TestNode } from '../../helpers/node';
import { requireRedis, startRedis, type TestRedis } from '../../helpers/redis';
import { completedChunks, startWorkerProcess, stopWorker, type WorkerProcess } from '../../helpers/workers';
import { probeBlender } from '../../../src/render-node/blender/probe';
import { redisKeys } from '../../../src/render-node/distributed/protocol';

const blenderPath = requireBlender();
const redisServer = requireRedis();

/** A Blender whose renders fail at once, as on a machine with a broken GPU driver (probing works). */
async function brokenBlender(dir: string, real: string): Promise<string> {
  const path = join(dir, 'broken', 'blender');
  await mkdir(join(dir, 'broken'), { recursive: true });
  await writeFile(path, `#!/bin/sh\ncase "$*" in *render.py*) echo "Error: simulated GPU fault" >&2; exit 1;; esac\nexec "${real}" "$@"\n`);
  await chmod(path, 0o755);
  return path;
}

/** The real Blender, reporting itself as 2.93 when probed (so the worker counts as an old one). */
async function oldBlender(dir: string, real: string): Promise<string> {
  const path = join(dir, 'old', 'blender');
  await mkdir(join(dir, 'old'), { recursive: true });
  const rewrite = `const f=process.argv[1],fs=require('fs'),j=JSON.parse(fs.readFileSync(f,'utf8'));j.version='2.93.0';j.versionParts=[2,93,0];fs.writeFileSync(f,JSON.stringify(j))`;
  await writeFile(
    path,
    `#!/bin/bash\nif [[ "$*" == *probe.py* ]]; then "${real}" "$@" || exit $?; "${process.execPath}" -e "${rewrite}" "\${@: -1}"; exit $?; fi\nexec "${real}" "$@"\n`,
  );
  await chmod(path, 0o755);
  return path;
}

describe.skipIf(!blenderPath || !redisServer)('distributed render node: failing workers and Blender versions', () => {
  let redis: TestRedis;
  let work: string;
  let t: TestNode;
  let keys: Redis;
  const running = new Map<string, WorkerProcess>();

  const start = async (name: string, blender: string) => {
    const worker = await startWorkerProcess({ redis: redis.url, node: t.url, name, cacheDir: join(work, `cache-${name}`), blender, threads: 1 });
    running.set(name, worker);
  };
  const stop = async (name: string) => {
    await stopWorker(running.get(name)!);
    running.delete(name);
  };
  const submit = async (scene: string, expected = 'validated') => {
    const slug = await uploadBytes(t, 'scene.blend', await readFile(scene));
    const job = (await t.call('POST', '/jobs', { slug })).json;
    await t.call('POST', `/jobs/${job.id}/validate`);
    const validated = await waitForJob(t, job.id, (j) => j.status !== 'validating');
    expect(validated.status).toBe(expected);
    return validated;
  };
  const render = async (id: string, config: Record<string, unknown> = {}) => {
    await t.call('POST', `/jobs/${id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', ...config } });
    return waitForJob(t, id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 300_000);
  };
  const renderedBy = async (jobId: string) => (await completedChunks(redis.url, jobId)).map((j) => j.returnvalue.worker as string);

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-routing-'));
    redis = await startRedis(redisServer!);
    const blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    t = await startTestNode({ blender, distributed: { redis: { url: redis.url }, chunkSize: 1, reconcileMs: 1000 } });
    keys = new Redis(redis.url);
    await Promise.all([start('alpha', blenderPath!), start('broken', await brokenBlender(work, blenderPath!))]);
  });

  afterAll(async () => {
    await Promise.allSettled([...running.values()].map((w) => stopWorker(w)));
    keys?.disconnect();
    await t?.stop();
    await redis?.dispose();
  });

  it('a worker that keeps failing a job\'s chunks stops getting them; the job completes on the others', async () => {
    const scene = await makeSampleScene(work, { frames: 6 });
    const job = await submit(scene);
    const done = await render(job.id, { resolutionPercentage: 400, sampleCount: 64 });
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(done.progress).toEqual({ completedFrames: 6, totalFrames: 6 });
    const failures = await keys.hgetall(redisKeys.failures(job.id));
    expect(failures).toEqual({ broken: '2' });
    expect(JSON.parse((await keys.hget(redisKeys.jobBlocks(job.id), 'broken'))!)).toMatchObject({ by: 'failures' });
    expect((await t.call('GET', '/node/workers')).json.workers.find((w: any) => w.name === 'broken').chunksFailed).toBe(2);
    expect(new Set(await renderedBy(job.id))).toEqual(new Set(['alpha']));
  });

  it('a chunk that keeps failing fails the job with a reason naming its frames and the worker', async () => {
    await stop('alpha');
    const scene = await makeSampleScene(join(work, 'two'), { frames: 2 });
    const job = await submit(scene);
    const done = await render(job.id);
    expect(done.status).toBe('failed');
    expect(done.failedReason).toMatchObject({ name: 'ChunkFailed', type: 'render', workers: ['broken'] });
    expect(done.failedReason.message).toMatch(/^Frames ([12]) failed 3 times \(broken \d times\)\. Last error: Worker "broken" could not render frames \1: Blender stopped \(exit code 1\).*simulated GPU fault/);
    expect(done.failedReason.frames).toHaveLength(1);
    expect((await t.call('GET', '/node/workers')).json.chunks).toMatchObject({ waiting: 0, delayed: 0 });
  });

  it('the analysis warns when no worker is connected; a scene no connected worker can open fails its validation', async () => {
    await stop('broken');
    const scene = await makeSampleScene(join(work, 'versions'), { frames: 4 });
    const none = await submit(scene);
    expect(none.analysis.warnings.map((w: any) => w.code)).toContain('no-render-workers');

    await start('old', await oldBlender(work, blenderPath!));
    const old = await submit(scene, 'failed');
    expect(old.failedReason).toMatchObject({ name: 'SceneTooNew', type: 'blender' });
    expect(old.failedReason.message).toContain(`saved with Blender ${none.analysis.savedWithBlender}`);
    expect(old.failedReason.message).toContain('2.93.0');
    expect(await renderedBy(old.id)).toEqual([]);
  });

  it('chunks go only to the workers of the Blender version chosen for the job', async () => {
    await start('alpha', blenderPath!);
    const scene = await makeSampleScene(join(work, 'versions'), { frames: 4 });
    const job = await submit(scene);
    expect(job.analysis.warnings).toEqual(expect.not.arrayContaining([expect.objectContaining({ code: 'different-blender' })]));
    const done = await render(job.id, { resolutionPercentage: 200 });
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(new Set(await renderedBy(job.id))).toEqual(new Set(['alpha']));
    expect(running.get('old')!.output()).toContain('handing a chunk over to another worker');
  });
});
