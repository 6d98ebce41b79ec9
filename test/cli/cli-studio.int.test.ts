import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeBlender } from '../../src/render-node/blender/probe';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { runCli } from '../helpers/cli';
import { FakeApi } from '../helpers/fake-api-server';
import { startTestNode, waitForJob, type TestNode } from '../helpers/node';
import { requireRedis, startRedis, type TestRedis } from '../helpers/redis';
import { startWorkerProcess, stopWorker, type WorkerProcess } from '../helpers/workers';
import { cliSetup, type CliSetup } from './helpers/cli-setup';

const blenderPath = requireBlender();
const redisServer = requireRedis();

describe.skipIf(!blenderPath || !redisServer)("the CLI on a studio's farm: a Renderdrop node with Redis and a real render worker", () => {
  let work: string;
  let redis: TestRedis;
  let t: TestNode;
  let worker: WorkerProcess | undefined;
  let cli: CliSetup;
  let scene: string;
  let jobId: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-cli-studio-'));
    redis = await startRedis(redisServer!);
    const blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    t = await startTestNode({ blender, distributed: { redis: { url: redis.url }, chunkSize: 1, reconcileMs: 1000 } });
    worker = await startWorkerProcess({ redis: redis.url, node: t.url, name: 'render-01', cacheDir: join(work, 'cache'), blender: blenderPath!, threads: 1, tags: ['cpu-box'] });
    cli = await cliSetup(t.url, t.key);
    scene = await makeSampleScene(join(work, 'scene'), { frames: 2 });
  }, 180_000);

  afterAll(async () => {
    if (worker) await stopWorker(worker);
    await t?.stop();
    await redis?.dispose();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('lists the worker with its tags, as text and as JSON', async () => {
    const json = await runCli(['workers', '--json'], { env: cli.env });
    expect(json.code, json.stderr).toBe(0);
    const view = JSON.parse(json.stdout);
    expect(view.mode).toBe('distributed');
    expect(view.workers).toEqual([expect.objectContaining({ name: 'render-01', tags: ['cpu-box'], state: 'idle' })]);
    const text = await runCli(['workers'], { env: cli.env });
    expect(text.stdout).toMatch(/^1 render worker on redis:/);
    expect(text.stdout).toMatch(/^render-01 +\S+ +cpu-box +\d+\.\d+\.\d+ .* idle$/m);
  });

  it('submits with a priority and a tag no worker has: says so up front, and the job waits saying why', async () => {
    const run = await runCli(['submit', scene, '--yes', '--no-pack', '--frames', '1-2', '--priority', '80', '--requires', 'GPU'], { env: cli.env, timeoutMs: 170_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('No render worker of this farm carries gpu: the job will wait until a worker with that tag connects.');
    const jobs = (await t.call('GET', '/jobs?pageSize=10')).json.jobs;
    jobId = jobs[0].id;
    const job = await waitForJob(t, jobId, (j) => j.status === 'booting' && typeof j.statusMessage === 'string', 60_000);
    expect(job).toMatchObject({ priority: 80, requires: ['gpu'] });
    expect(job.statusMessage).toMatch(/gpu/);

    const status = await runCli(['status', jobId.slice(0, 8)], { env: cli.env });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^Priority +80$/m);
    expect(status.stdout).toMatch(/^Needs tags +gpu$/m);
    expect(status.stdout).toMatch(new RegExp(`^Time +${job.statusMessage.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    const json = JSON.parse((await runCli(['status', jobId, '--json'], { env: cli.env })).stdout);
    expect(json.clock).toMatchObject({ state: 'waiting', startsInSeconds: null, waitingReason: job.statusMessage });
  }, 240_000);

  it('changes the priority of the waiting job', async () => {
    const run = await runCli(['priority', jobId.slice(0, 8), '95'], { env: cli.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Job ${jobId} now has priority 95\\. .*gpu`));
    expect((await t.call('GET', `/jobs/${jobId}`)).json.data.priority).toBe(95);
    const wrong = await runCli(['priority', jobId, '101'], { env: cli.env });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/--priority must be from 0 to 100|from 0 to 100/);
  });

  it('blocks and unblocks the worker for the job, and refuses a worker it does not know in one line', async () => {
    const block = await runCli(['workers', 'block', 'render-01', '--job', jobId.slice(0, 8)], { env: cli.env });
    expect(block.code, block.stderr).toBe(0);
    expect(block.stdout).toBe(`render-01 is blocked for job ${jobId.slice(0, 8)}: it takes none of its frames until unblocked (a chunk it renders now finishes).\n`);
    const view = JSON.parse((await runCli(['workers', '--json'], { env: cli.env })).stdout);
    expect(view.blocks).toEqual([expect.objectContaining({ worker: 'render-01', jobId, by: 'hand' })]);
    expect((await runCli(['workers'], { env: cli.env })).stdout).toMatch(new RegExp(`^Blocked:\\n  render-01 for job ${jobId.slice(0, 8)} \\(by hand\\) since `, 'm'));
    const unblock = await runCli(['workers', 'unblock', 'render-01', '--job', jobId], { env: cli.env });
    expect(unblock.code, unblock.stderr).toBe(0);
    expect(unblock.stdout).toBe(`render-01 may render job ${jobId.slice(0, 8)} again.\n`);
    const unknown = await runCli(['workers', 'block', 'nobody'], { env: cli.env });
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect(unknown.stderr).toBe('renderdrop: This node has no render worker named "nobody" (none reported in the last day). Its workers: render-01.\n');
    await t.call('POST', `/jobs/${jobId}/cancel`);
    await waitForJob(t, jobId, (j) => j.status === 'canceled', 30_000);
    const ended = await runCli(['priority', jobId, '10'], { env: cli.env });
    expect(ended.code).toBe(1);
    expect(ended.stderr).toBe(`renderdrop: Job ${jobId} is already canceled; a priority only changes the order of work still to do.\n`);
  });

  it('says when a job waiting behind a render on the only worker with its tag starts, in status and --json', async () => {
    const scenes = join(work, 'ahead');
    const long = await makeSampleScene(scenes, { frames: 8, missingTexture: false, everySample: true, name: 'long.blend' });
    const next = await makeSampleScene(scenes, { frames: 2, missingTexture: false, name: 'next.blend' });
    const submit = async (path: string, samples: string) => {
      const run = await runCli(['submit', path, '--yes', '--no-pack', '--samples', samples, '--percentage', '200', '--requires', 'cpu-box', '--json'], { env: cli.env, timeoutMs: 170_000 });
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))).submissions[0].jobId as string;
    };
    const first = await submit(long, '1024');
    await waitForJob(t, first, (j) => j.progress?.completedFrames > 0, 120_000);
    const second = await submit(next, '16');
    const waiting = await waitForJob(t, second, (j) => typeof j.waiting?.startsInSeconds === 'number', 60_000);
    const status = await runCli(['status', second], { env: cli.env });
    expect(status.stdout).toMatch(/^Time +Starts in (about \d+ (min|h)|under a minute)/m);
    const json = JSON.parse((await runCli(['status', second, '--json'], { env: cli.env })).stdout);
    expect(json.clock).toMatchObject({ state: 'waiting', startsInSeconds: expect.any(Number), waitingReason: null });
    expect(json.job.waiting.startsInSeconds).toBeGreaterThanOrEqual(0);
    expect(waiting.requires).toEqual(['cpu-box']);
    const list = await runCli(['jobs'], { env: cli.env });
    expect(list.stdout).toMatch(new RegExp(`^${second} +booting +0/2 +Starts in (about \\d+ (min|h)|under a minute)`, 'm'));
    await t.call('POST', `/jobs/${second}/cancel`);
    await t.call('POST', `/jobs/${first}/cancel`);
  }, 300_000);
});

describe('the CLI on a farm that is not a Renderdrop node', () => {
  let api: FakeApi;
  let cli: CliSetup;
  let work: string;

  beforeAll(async () => {
    api = await FakeApi.start();
    cli = await cliSetup(api.server.url, 'RJ-test');
    work = await mkdtemp(join(tmpdir(), 'rd-cli-farm-'));
  });
  afterAll(async () => {
    await api?.server.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('refuses --priority and --requires before uploading, in one line', async () => {
    const scene = join(work, 'shot.blend');
    const { writeFile } = await import('node:fs/promises');
    const { blendBytes } = await import('../helpers/scene-files');
    await writeFile(scene, blendBytes());
    const run = await runCli(['submit', scene, '--yes', '--priority', '80', '--requires', 'gpu'], { env: cli.env, timeoutMs: 60_000 });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toBe(`renderdrop: ${api.server.url} is not a Renderdrop node (or an older one): it cannot order jobs by priority (--priority) or send a job only to workers with tags (--requires); submit without them.\n`);
    expect(api.uploads.size).toBe(0);
    const workers = await runCli(['workers'], { env: cli.env });
    expect(workers.stderr).toBe(`renderdrop: ${api.server.url} is not a Renderdrop node (or an older one): it cannot list render workers.\n`);
    const priority = await runCli(['priority', '11111111-2222-4333-8444-555555555555', '60'], { env: cli.env });
    expect(priority.stderr).toMatch(/is not a Renderdrop node \(or an older one\): it cannot change the priority of a job\.\n$/);
  });
});
