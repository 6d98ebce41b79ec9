import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { startRenderJob, startTestNode, waitForJob, type TestNode } from '../../helpers/node';
import { probeBlender, type BlenderInfo } from '../../../src/render-node/blender/probe';

const blenderPath = requireBlender();

/**
 * A node rendering with its own Blender has tags too (`node serve --tags`): a render requiring a tag
 * it lacks is not started and says why, and starts once the node runs with the tag.
 */
describe.skipIf(!blenderPath)('the tags of a node rendering with its own Blender (real Blender)', () => {
  let work: string;
  let blender: BlenderInfo;
  let t: TestNode | null = null;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-node-tags-'));
    blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
  });

  afterAll(async () => {
    await t?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('waits, saying the node lacks the tag, and renders once the node is started again with it', async () => {
    const dataDir = join(work, 'data');
    t = await startTestNode({ blender, dataDir, tags: ['gpu'] });
    expect((await t.call('GET', '/node/workers')).json).toMatchObject({ mode: 'embedded', tags: ['gpu'] });
    const scene = await readFile(await makeSampleScene(work, { frames: 2 }));
    const id = await startRenderJob(t, 'scene.blend', scene, { sampleCount: 4, resolutionPercentage: 25, requires: ['big-ram', 'gpu'] });
    const waiting = await waitForJob(t, id, (j) => j.statusMessage !== null, 30_000);
    expect(waiting.statusMessage).toBe('Waiting: the render node is not tagged big-ram');
    await new Promise((r) => setTimeout(r, 2000));
    const still = (await t.call('GET', `/jobs/${id}`)).json.data;
    expect(still).toMatchObject({ status: 'booting', progress: { completedFrames: 0 }, statusMessage: 'Waiting: the render node is not tagged big-ram' });
    expect(t.node.ctx.runner.isRunning(id)).toBe(false);

    const other = await startRenderJob(t, 'other.blend', scene, { sampleCount: 4, resolutionPercentage: 25, requires: ['gpu'] });
    const rendered = await waitForJob(t, other, (j) => ['completed', 'failed'].includes(j.status), 120_000);
    expect(rendered.status, JSON.stringify(rendered.failedReason)).toBe('completed');
    expect((await t.call('GET', `/node/jobs/${other}/frames`)).json.frames.map((f: { worker: string | null }) => f.worker)).toEqual([null, null]);
    expect((await t.call('GET', `/jobs/${id}`)).json.data.status).toBe('booting');

    await t.stop();
    t = await startTestNode({ blender, dataDir, tags: ['big-ram', 'gpu'] });
    const done = await waitForJob(t, id, (j) => ['completed', 'failed'].includes(j.status), 120_000);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(done.statusMessage).toBeNull();
    expect(done.progress).toEqual({ completedFrames: 2, totalFrames: 2 });
  });
});
