import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBundle } from '../../src/blend/pack/write-bundle';
import { traceScene } from '../../src/blend/pack/trace-scene';
import { renderConfigProblem } from '../../src/core/lifecycle/render-review';
import { probeBlender } from '../../src/render-node/blender/probe';
import { requireBlender } from '../helpers/blender';
import { startRenderJob, startTestNode, uploadBytes, waitForJob, type TestNode } from '../helpers/node';
import { makeSequencerScene, renderInPlace } from '../helpers/pack-corpus';
import { decodePng, hasColour, type Pixels } from '../helpers/png-pixels';
import { expectSameFrames } from '../helpers/same-frames';

const blenderPath = requireBlender();

describe.skipIf(!blenderPath)('an edit that renders through the video sequencer, with no camera (real node, real Blender)', () => {
  let work: string;
  let t: TestNode;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-sequencer-'));
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('packs its strips\' files, validates without a camera, and renders frames pixel-identical to Blender in place', async () => {
    const root = join(work, 'edit');
    await mkdir(root);
    const made = await makeSequencerScene(blenderPath!, root);
    await renderInPlace(blenderPath!, made.scene, join(root, 'inplace', 'edit_'), 1, 2);
    const inPlace: Pixels[] = await Promise.all([1, 2].map(async (n) => decodePng(await readFile(join(root, 'inplace', `edit_000${n}.png`)))));
    expect(hasColour(inPlace[0]!, made.title), 'Blender in place shows the image strip on frame 1').toBe(true);
    const centre = (p: Pixels) => [...p.data.subarray((18 * p.width + 32) * p.channels, (18 * p.width + 32) * p.channels + 3)];
    const [r, g, b] = centre(inPlace[1]!);
    expect(b! > r! && b! > g!, `Blender in place shows the movie strip on frame 2 (${r}, ${g}, ${b})`).toBe(true);

    const plan = await traceScene(made.scene);
    expect(plan.missing).toEqual([]);
    expect(plan.entries.map((e) => e.name)).toEqual(['edit.blend', 'media/clip.mkv', 'media/hum.wav', 'media/title.png']);
    const bundle = join(root, 'edit.zip');
    await writeBundle(plan, bundle);

    const jobId = await startRenderJob(t, 'edit.zip', await readFile(bundle), {});
    const done = await waitForJob(t, jobId, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 170_000);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(done.analysis).toMatchObject({ rendersSequencer: true, activeCamera: null, cameras: [], warnings: [] });
    expect(done.analysis.dependencies.map((d: { path: string; exists: boolean }) => [d.path, d.exists])).toEqual(
      expect.arrayContaining([
        ['//media/title.png', true],
        ['//media/clip.mkv', true],
        ['//media/hum.wav', true],
      ]),
    );
    expect(done.finalConfig).not.toHaveProperty('activeCamera');

    const downloads = (await t.call('GET', `/jobs/${jobId}/downloads`)).json;
    const frames = join(root, 'farm');
    await mkdir(frames);
    for (const output of downloads.frameOutputs as { fileName: string; url: string }[]) {
      await writeFile(join(frames, output.fileName), Buffer.from(await (await fetch(output.url)).arrayBuffer()));
    }
    await expectSameFrames(frames, ['edit_0001.png', 'edit_0002.png'], inPlace);
  }, 300_000);

  it('still refuses a scene with no camera whose sequencer holds no strip, saying so as before', async () => {
    const root = join(work, 'empty');
    await mkdir(root);
    const made = await makeSequencerScene(blenderPath!, root, { noStrips: true });
    const slug = await uploadBytes(t, 'empty.blend', await readFile(made.scene));
    const job = (await t.call('POST', '/jobs', { slug })).json;
    await t.call('POST', `/jobs/${job.id}/validate`);
    const validated = await waitForJob(t, job.id, (j) => j.status !== 'validating');
    expect(validated.status).toBe('validated');
    expect(validated.analysis.rendersSequencer).toBe(false);
    expect(validated.analysis.warnings).toContainEqual({
      code: 'no-active-camera',
      message: 'The scene has no camera, so nothing can be rendered. Add a camera in Blender, make it the active camera and save the scene.',
    });
    expect(renderConfigProblem(validated.analysis, { colorManagementPreset: 'default' })).toBe(
      'The scene has no camera, so nothing can be rendered. Add a camera in Blender, make it the active camera, save the scene and submit it again.',
    );
    const refused = await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default' } });
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe('no_camera');
  }, 120_000);
});
