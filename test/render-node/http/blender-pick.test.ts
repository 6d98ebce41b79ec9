import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, uploadBytes, type TestNode } from '../../helpers/node';
import { blenderInfo } from '../../helpers/blender-info';
import { putJobInStatus } from '../../helpers/job-status';
import { sampleAnalysis } from '../../fixtures/analysis';

/** A job moved straight to `validated` with a fixture analysis of a scene saved by `saved`. */
async function validatedJob(t: TestNode, saved: string): Promise<string> {
  const slug = await uploadBytes(t, 'shot.blend', Buffer.from('BLENDER-v304 not really a scene'));
  const { id } = (await t.call('POST', '/jobs', { slug })).json;
  putJobInStatus(t.node.ctx, id, 'validated', { analysis: sampleAnalysis({ savedWithBlender: saved }), analysisId: crypto.randomUUID(), totalFrames: 3 });
  return id;
}

const render = (t: TestNode, id: string, blenderVersion?: string) =>
  t.call('POST', `/jobs/${id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', ...(blenderVersion !== undefined ? { blenderVersion } : {}) } });

describe('the Blender version a render asks for, on a node that renders with its own Blender 3.4.1', () => {
  let t: TestNode;
  beforeAll(async () => {
    // A Blender that exits at once: these tests read the answers to the render requests, not the renders.
    t = await startTestNode({ blender: blenderInfo({ path: '/bin/false' }) });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('takes only its own version, and records it in finalConfig (asked for or not)', async () => {
    const asked = await render(t, await validatedJob(t, '3.4'), '3.4');
    expect(asked.status, JSON.stringify(asked.json)).toBe(200);
    expect(asked.json.requestedConfig.blenderVersion).toBe('3.4');
    expect(asked.json.finalConfig.blenderVersion).toBe('3.4.1');
    const exact = await render(t, await validatedJob(t, '3.4'), '3.4.1');
    expect(exact.json.finalConfig.blenderVersion).toBe('3.4.1');
    const farmsChoice = await render(t, await validatedJob(t, '3.4'));
    expect(farmsChoice.json.finalConfig.blenderVersion).toBe('3.4.1');
  });

  it('refuses, in one line naming the version it has, one it does not have', async () => {
    const id = await validatedJob(t, '3.4');
    for (const version of ['4.3', '3.4.2']) {
      const res = await render(t, id, version);
      expect(res.status).toBe(400);
      expect(res.json.error).toEqual({ code: 'blender_unavailable', message: `This node has no Blender ${version}: it renders with Blender 3.4.1 (its own); ask for 3.4.1, or leave the choice to the farm.` });
    }
    expect(t.node.ctx.jobs.get(id)?.status).toBe('validated');
  });

  it('refuses one older than the scene\'s, and a value that is not a version', async () => {
    const res = await render(t, await validatedJob(t, '4.3'), '3.4');
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual({ code: 'blender_unavailable', message: 'The scene was saved with Blender 4.3, which Blender 3.4.1 cannot open: leave the choice to the farm.' });
    const notVersion = await render(t, await validatedJob(t, '3.4'), 'latest');
    expect(notVersion.status).toBe(400);
    expect(notVersion.json.error.message).toContain('blenderVersion');
  });
});
