import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes';
import { probeBlender } from '../../src/render-node/blender/probe';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { runCli } from '../helpers/cli';
import { HostileServer, sendJson } from '../helpers/hostile-server';
import { startRenderJob, startTestNode, uploadBytes, waitForJob, type TestNode } from '../helpers/node';
import { cliSetup, type CliSetup } from './helpers/cli-setup';

const blenderPath = requireBlender();
const ENDED = ['completed', 'failed', 'canceled'];
const UNKNOWN = '6a3c0f0e-0d8e-4c55-9a53-9d1a1f0c0c0c';

describe.skipIf(!blenderPath)('renderdrop logs against a real render node', () => {
  let t: TestNode;
  let cli: CliSetup;
  let work: string;
  let scene: Buffer;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-cli-logs-'));
    scene = await readFile(await makeSampleScene(work, {}));
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
    cli = await cliSetup(t.url, t.key);
  });
  afterAll(async () => {
    await t?.stop();
    await rm(work, { recursive: true, force: true });
  });

  const expectNoPrivatePaths = (text: string) => {
    for (const folder of [t.dataDir, work, homedir()]) expect(text).not.toContain(folder);
  };

  it("prints a completed job's log, by its id or the start of it", async () => {
    const id = await startRenderJob(t, 'shot.blend', scene, { sampleCount: 1 });
    expect((await waitForJob(t, id, (j) => ENDED.includes(j.status))).status).toBe('completed');
    const run = await runCli(['logs', id.slice(0, 8)], { env: cli.env });
    expect(run.code, run.stderr).toBe(EXIT.ok);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('── Scene analysis ──');
    expect(lines).toContain('── Render ──');
    expect(lines.some((l) => /^Fra:3 /.test(l))).toBe(true);
    expect(run.stdout).toContain('<job>/scene/shot.blend');
    expectNoPrivatePaths(run.stdout);
    expect(run.stderr).toBe('');
  });

  it("prints a failed job's log, ending with why it failed", async () => {
    const slug = await uploadBytes(t, 'broken.blend', scene.subarray(0, Math.floor(scene.length / 3)));
    const job = (await t.call('POST', '/jobs', { slug })).json;
    await t.call('POST', `/jobs/${job.id}/validate`);
    const failed = await waitForJob(t, job.id, (j) => j.status !== 'validating');
    expect(failed.status).toBe('failed');
    const run = await runCli(['logs', job.id], { env: cli.env });
    expect(run.code, run.stderr).toBe(EXIT.ok);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(`── Failed: ${failed.failedReason.message} ──`);
    expectNoPrivatePaths(run.stdout);
  });

  it('--follow prints the lines as they come until the job has finished', async () => {
    const longer = await readFile(await makeSampleScene(work, { frames: 8 }));
    const id = await startRenderJob(t, 'longer.blend', longer, { sampleCount: 16 });
    const run = await runCli(['logs', id, '--follow'], { env: cli.env, timeoutMs: 180_000 });
    const job = (await t.call('GET', `/jobs/${id}`)).json.data;
    expect(run.code, run.stderr).toBe(EXIT.ok);
    expect(job.status).toBe('completed');
    const whole = (await t.call('GET', `/node/jobs/${id}/log`)).json.text;
    expect(run.stdout).toBe(whole);
    expect(run.stdout).toMatch(/^Fra:8 /m);
  });

  it('an unknown job: a clear error and exit code 1', async () => {
    const run = await runCli(['logs', UNKNOWN], { env: cli.env });
    expect(run.code).toBe(EXIT.failure);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(new RegExp(`^renderdrop: Job ${UNKNOWN} was not found on the server`));
  });
});

describe('renderdrop logs against a farm that keeps no log', () => {
  let server: HostileServer;
  let env: NodeJS.ProcessEnv;
  const FAILED = '0b8f6f4e-1a2b-4c3d-8e9f-001122334455';
  const DONE = '0b8f6f4e-1a2b-4c3d-8e9f-001122334466';
  const job = (id: string, extra: Record<string, unknown>) => ({ id, workspaceId: 'ws', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:10:00Z', ...extra });

  beforeAll(async () => {
    server = await HostileServer.start();
    server.route('GET', `/api/external/v1/jobs/${FAILED}`, (_req, res) =>
      sendJson(res, 200, { data: job(FAILED, { status: 'failed', failedReason: { name: 'OutOfMemory', type: 'render', message: 'The render needed more memory than the machine has.' } }) }),
    );
    server.route('GET', `/api/external/v1/jobs/${DONE}`, (_req, res) => sendJson(res, 200, { data: job(DONE, { status: 'completed' }) }));
    env = (await cliSetup(server.url, 'RJ-farm-without-logs')).env;
  });
  afterAll(async () => server?.close());

  it("a failed job: its failure reason, that the farm keeps no log, exit code 1", async () => {
    const run = await runCli(['logs', FAILED], { env });
    expect(run.code).toBe(EXIT.failure);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`Job ${FAILED} failed: The render needed more memory than the machine has.\nThis farm keeps no log of what Blender printed for job ${FAILED}.\n`);
    expect(server.requestsTo('GET', `/api/external/v1/node/jobs/${FAILED}/log`)).toHaveLength(1);
  });

  it('a job that did not fail: that the farm keeps no log', async () => {
    const run = await runCli(['logs', DONE, '--follow'], { env });
    expect(run.code).toBe(EXIT.failure);
    expect(run.stderr).toBe(`This farm keeps no log of what Blender printed for job ${DONE} (it is completed).\n`);
  });

  it('an unknown job on that farm: not found, not "no log"', async () => {
    const run = await runCli(['logs', UNKNOWN], { env });
    expect(run.code).toBe(EXIT.failure);
    expect(run.stderr).toMatch(/was not found on the server/);
    expect(run.stderr).not.toMatch(/keeps no log/);
  });
});
