import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeBlender } from '../../src/render-node/blender/probe';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { runCli } from '../helpers/cli';
import { startTestNode, type TestNode } from '../helpers/node';
import { cliSetup, parseSubmissions, type CliSetup } from './helpers/cli-setup';

const blenderPath = requireBlender();

describe.skipIf(!blenderPath)("the node's estimate on the command line (real node, real Blender)", () => {
  let work: string;
  let t: TestNode;
  let cli: CliSetup;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-cli-estimate-'));
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
    cli = await cliSetup(t.url, t.key);
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('`submit --validate-only` gives the render time with its range, in --json and in words; `status` the same while the job waits for its review', async () => {
    const scene = await makeSampleScene(work, { frames: 6, missingTexture: false, everySample: true, name: 'timed.blend' });
    const run = await runCli(['submit', scene, '--validate-only', '--json', '--new'], { env: cli.env, timeoutMs: 240_000 });
    expect(run.code, run.stderr).toBe(0);
    const [outcome] = parseSubmissions(run.stdout);
    expect(outcome.state).toBe('validated');
    const estimate = outcome.review.estimate;
    expect(estimate).toEqual({ seconds: expect.any(Number), low: expect.any(Number), high: expect.any(Number) });
    expect(estimate.low).toBeLessThanOrEqual(estimate.seconds);
    expect(estimate.high).toBeGreaterThanOrEqual(estimate.seconds);

    const words = await runCli(['submit', scene, '--validate-only', '--new'], { env: cli.env, timeoutMs: 240_000 });
    expect(words.code, words.stderr).toBe(0);
    expect(words.stdout).toMatch(/Render time on this farm: about \d+(\.\d)? (s|min|h)(, likely [^ ]+( (s|min|h))?)? \(from a sample render of the scene\)\./);

    const status = await runCli(['status', outcome.jobId, '--json'], { env: cli.env });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).estimate).toMatchObject({ ...estimate, basis: 'sample' });
    const text = await runCli(['status', outcome.jobId], { env: cli.env });
    expect(text.stdout).toMatch(/^Estimate +about \d+/m);
  }, 600_000);
});
