import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateWithModel, renderTargetFrom } from '../../src/shared/render';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestNode, uploadBytes, waitForJob, type TestNode } from '../helpers/node';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { blenderProcesses } from '../helpers/workers';
import { probeBlender } from '../../src/render-node/blender/probe';
import { SAMPLE_DIR } from '../../src/render-node/estimate';

const blenderPath = requireBlender();

async function validatedJob(t: TestNode, scene: Buffer): Promise<string> {
  const slug = await uploadBytes(t, 'estimate.blend', scene);
  const job = (await t.call('POST', '/jobs', { slug })).json;
  await t.call('POST', `/jobs/${job.id}/validate`);
  const validated = await waitForJob(t, job.id, (j) => j.status !== 'validating');
  expect(validated.status).toBe('validated');
  return job.id as string;
}

async function untilSampling(): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await blenderProcesses(SAMPLE_DIR)).length === 0) {
    if (Date.now() > deadline) throw new Error('no sample render started');
    await new Promise((r) => setTimeout(r, 50));
  }
}

function secondsBetween(job: any, from: string, to: string): number {
  const at = (status: string) => Date.parse(job.timeline.filter((e: any) => e.status === status).at(-1).at);
  return (at(to) - at(from)) / 1000;
}

describe.skipIf(!blenderPath)('the node estimates a render from a sample render (real Blender)', () => {
  let t: TestNode;
  let scene: Buffer;

  beforeAll(async () => {
    const work = await mkdtemp(join(tmpdir(), 'rd-estimate-'));
    scene = await readFile(await makeSampleScene(work, { frames: 8, everySample: true, missingTexture: false, name: 'estimate.blend' }));
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  it('gives a validated job an estimate with its range, close to the render it then takes', async () => {
    const id = await validatedJob(t, scene);
    const before = await waitForJob(t, id, (j) => j.estimate !== undefined, 90_000);
    expect(before.estimate.basis).toBe('sample');
    expect(before.estimate.low).toBeLessThanOrEqual(before.estimate.seconds);
    expect(before.estimate.high).toBeGreaterThanOrEqual(before.estimate.seconds);
    expect(await blenderProcesses(SAMPLE_DIR)).toEqual([]);
    const requested = { colorManagementPreset: 'default', sampleCount: 48, resolution: [320, 180] };
    // The review prices the settings changed in it with the model the node's estimate carries: the same figure the node gives at Start.
    expect(before.estimate.model).toMatchObject({ engine: 'CYCLES', parallel: 1 });
    const shown = estimateWithModel(before.estimate.model, renderTargetFrom(requested, before.analysis)!)!;
    const started = await t.call('POST', `/jobs/${id}/render`, { requestedRenderConfig: requested });
    expect(started.status).toBe(200);
    const given = started.json.estimate;
    expect(given).toMatchObject({ basis: 'sample', seconds: shown.seconds, low: shown.low, high: shown.high });
    expect(given.model).toBeUndefined();
    expect(given.seconds).toBeGreaterThan(before.estimate.seconds);
    const rendering = await waitForJob(t, id, (j) => j.status === 'completed' || (j.status === 'rendering' && j.estimate?.basis === 'frames'), 300_000);
    if (rendering.status === 'rendering') expect(rendering.estimate.seconds).toBeGreaterThanOrEqual(1);
    const done = await waitForJob(t, id, (j) => j.status === 'completed', 300_000);
    const took = secondsBetween(done, 'rendering', 'finalizing');
    console.log(`estimate ${given.seconds} s (${given.low}-${given.high}), took ${took.toFixed(1)} s, ratio ${(given.seconds / took).toFixed(2)}`);
    expect(given.seconds).toBeGreaterThan(took / 3);
    expect(given.seconds).toBeLessThan(took * 3);
    expect(done.estimate).toEqual(given);
  }, 600_000);

  it('stops the sample render when the job is canceled during it, leaving no Blender running', async () => {
    const id = await validatedJob(t, scene);
    await untilSampling();
    const canceled = await t.call('POST', `/jobs/${id}/cancel`, {});
    expect(canceled.status).toBe(200);
    expect(await blenderProcesses(SAMPLE_DIR)).toEqual([]);
    expect((await t.call('GET', `/jobs/${id}`)).json.data.estimate).toBeUndefined();
  }, 300_000);

  it('stops the sample render when the render is started during it, and the render goes on', async () => {
    const id = await validatedJob(t, scene);
    await untilSampling();
    const started = await t.call('POST', `/jobs/${id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default' } });
    expect(started.status).toBe(200);
    const deadline = Date.now() + 5_000;
    while ((await blenderProcesses(SAMPLE_DIR)).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await blenderProcesses(SAMPLE_DIR)).toEqual([]);
    const done = await waitForJob(t, id, (j) => j.status === 'completed', 300_000);
    expect(done.progress.completedFrames).toBe(8);
  }, 300_000);
});
