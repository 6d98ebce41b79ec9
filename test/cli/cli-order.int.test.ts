import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeBlender } from '../../src/render-node/blender/probe';
import { spreadOrder } from '../../src/shared/render';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { runCli } from '../helpers/cli';
import { startFarmProxy, type FarmProxy } from '../helpers/farm-proxy';
import { startTestNode, waitForJob, type TestNode } from '../helpers/node';
import { EXIT } from '../../src/cli/exit-codes';
import { cliSetup, jobsOfFile, parseSubmissions } from './helpers/cli-setup';

const blenderPath = requireBlender();
const ended = (j: { status: string }) => ['completed', 'failed', 'canceled'].includes(j.status);

describe.skipIf(!blenderPath)('renderdrop submit --order (real node, real Blender)', () => {
  let t: TestNode;
  let work: string;
  let proxy: FarmProxy | null = null;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-cli-order-'));
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await t?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** Submit a 5-frame scene through `url` with `args`; the run and the node's order of its frames. */
  async function submitted(url: string, name: string, args: string[]): Promise<{ stdout: string; stderr: string; written: number[]; requested: Record<string, unknown> }> {
    const cli = await cliSetup(url, t.key);
    const scene = await makeSampleScene(work, { frames: 5, name });
    const run = await runCli(['submit', scene, '--yes', '--samples', '2', '--json', ...args], { env: cli.env, timeoutMs: 180_000 });
    expect(run.code, run.stderr).toBe(EXIT.ok);
    const [result] = parseSubmissions(run.stdout);
    expect((await waitForJob(t, result.jobId, ended, 180_000)).status).toBe('completed');
    const [job] = await jobsOfFile(t, name);
    return { ...run, written: t.node.ctx.jobs.frames(result.jobId, 'written').map((f) => f.frame), requested: job.requestedConfig };
  }

  it('renders across the shot first by default, sending no order (the node\'s default)', async () => {
    const run = await submitted(t.url, 'spread-shot.blend', []);
    expect(run.written).toEqual(spreadOrder([1, 2, 3, 4, 5]));
    expect(run.written).toEqual([1, 5, 3, 2, 4]);
    expect(run.requested).not.toHaveProperty('frameOrder');
  }, 400_000);

  it('--order sequential keeps frame order', async () => {
    const run = await submitted(t.url, 'in-order-shot.blend', ['--order', 'sequential']);
    expect(run.written).toEqual([1, 2, 3, 4, 5]);
    expect(run.requested).toMatchObject({ frameOrder: 'sequential' });
  }, 400_000);

  it('refuses an order it does not know in one line', async () => {
    const cli = await cliSetup(t.url, t.key);
    const run = await runCli(['submit', join(work, 'none.blend'), '--yes', '--order', 'random'], { env: cli.env });
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toContain('"random" is not a frame order. Use spread (across the shot first) or sequential (in frame order).');
  });

  it('on a farm that is not a Renderdrop node, sends no order and says so in one line', async () => {
    proxy = await startFarmProxy(t.url);
    const run = await submitted(proxy.url, 'plain-farm-order.blend', ['--order', 'sequential']);
    expect(run.stderr).toContain(`${proxy.url} is not a Renderdrop node (or an older one): it renders the frames in the order it chooses, so --order sequential is left out.`);
    expect(run.requested).not.toHaveProperty('frameOrder');
  }, 400_000);
});
