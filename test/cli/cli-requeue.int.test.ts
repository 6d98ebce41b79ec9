import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeBlender } from '../../src/render-node/blender/probe';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { runCli } from '../helpers/cli';
import { startFarmProxy, type FarmProxy } from '../helpers/farm-proxy';
import { startTestNode, waitForJob, type TestNode } from '../helpers/node';
import { EXIT } from '../../src/cli/exit-codes';
import { cliSetup, jobsOfFile, parseSubmissions } from './helpers/cli-setup';

const blenderPath = requireBlender();
const ended = (j: { status: string }) => ['completed', 'failed', 'canceled'].includes(j.status);

describe.skipIf(!blenderPath)('renderdrop requeue (real node, real Blender)', () => {
  let t: TestNode;
  let work: string;
  let proxy: FarmProxy | null = null;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-cli-requeue-'));
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await t?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** Submit a 3-frame scene through `url` and wait until it is downloaded; its job id. */
  async function submitted(url: string, name: string): Promise<{ jobId: string; env: NodeJS.ProcessEnv; folder: string }> {
    const cli = await cliSetup(url, t.key);
    const scene = await makeSampleScene(work, { frames: 3, name });
    const run = await runCli(['submit', scene, '--yes', '--samples', '2', '--download', join(work, `out-${name}`), '--json'], { env: cli.env, timeoutMs: 180_000 });
    expect(run.code, run.stderr).toBe(EXIT.ok);
    const [result] = parseSubmissions(run.stdout);
    return { jobId: result.jobId, env: cli.env, folder: result.downloadedTo };
  }

  it('renders frame 2 again inside the job, says so, and refuses what it cannot do in one line', async () => {
    const { jobId, env, folder } = await submitted(t.url, 'requeue-shot.blend');
    const before = await stat(join(folder, 'sample_0002.png'));
    const run = await runCli(['requeue', jobId.slice(0, 8), '--frames', '2'], { env });
    expect(run.code, run.stderr).toBe(EXIT.ok);
    expect(run.stdout).toBe(`Rendering frame 2 of job ${jobId} again inside the job; its other frames stay. Bring the new frames into its folder with \`renderdrop download ${jobId} --follow\`.\n`);
    const done = await waitForJob(t, jobId, (j) => ended(j) && j.timeline.length > 7, 180_000);
    expect(done.status).toBe('completed');
    expect(done.timeline.find((e: { detail?: string }) => e.detail)).toMatchObject({ status: 'booting', detail: 'requeued frame 2' });
    const fetched = await runCli(['download', jobId, '--follow'], { env, timeoutMs: 120_000 });
    expect(fetched.code, fetched.stderr).toBe(EXIT.ok);
    expect((await stat(join(folder, 'sample_0002.png'))).mtimeMs, 'the frame rendered again is in the folder').toBeGreaterThan(before.mtimeMs);
    expect((await stat(join(folder, 'sample_0001.png'))).mtimeMs).toBeLessThanOrEqual(before.mtimeMs + 1000);

    const nothing = await runCli(['requeue', jobId, '--failed', '--json'], { env });
    expect(nothing.code).toBe(EXIT.failure);
    expect(nothing.stderr).toContain('Every frame of this job is rendered, so no frame failed. Name the frames to render again instead.');
    const outside = await runCli(['requeue', jobId, '--frames', '2-5'], { env });
    expect(outside.stderr).toContain('Frames 4-5 are not part of this job (it renders 1-3).');
    const both = await runCli(['requeue', jobId, '--frames', '2', '--failed'], { env });
    expect(both.code).toBe(EXIT.usage);
    expect(both.stderr).toContain('Give --frames or --failed, not both.');

    const again = await runCli(['requeue', jobId, '--frames', '1,3', '--json'], { env });
    expect(again.code, again.stderr).toBe(EXIT.ok);
    expect(JSON.parse(again.stdout)).toMatchObject({ jobId, requeued: true, frames: '1, 3', job: { id: jobId, status: 'booting' } });
    expect((await waitForJob(t, jobId, (j) => ended(j) && j.timeline.length > 11, 180_000)).status).toBe('completed');
  }, 600_000);

  it('on a farm without requeue, sends the frames as a new job of the same scene and settings, and says so in one line', async () => {
    proxy = await startFarmProxy(t.url);
    const { jobId, env } = await submitted(proxy.url, 'plain-farm.blend');
    const run = await runCli(['requeue', jobId, '--frames', '2'], { env, timeoutMs: 180_000 });
    expect(run.code, run.stderr).toBe(EXIT.ok);
    expect(proxy.requests).toContain(`POST /api/external/v1/node/jobs/${jobId}/requeue`);
    const jobs = await jobsOfFile(t, 'plain-farm.blend');
    expect(jobs).toHaveLength(2);
    const sent = jobs.find((j) => j.id !== jobId);
    expect(run.stdout).toContain(`This farm cannot render frames again inside a job: sent frame 2 as a new job ${sent.id}.`);
    expect(sent.requestedConfig).toMatchObject({ frameRanges: ['2'], sampleCount: 2 });
    expect((await t.call('GET', `/jobs/${jobId}`)).json.data.timeline.filter((e: { status: string }) => e.status === 'booting')).toHaveLength(1);
    expect((await waitForJob(t, sent.id, ended, 180_000)).status).toBe('completed');
  }, 600_000);
});
