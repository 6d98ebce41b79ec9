import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, uploadBytes, type TestNode } from '../../helpers/node';
import { putJobInStatus } from '../../helpers/job-status';
import { sampleAnalysis } from '../../fixtures/analysis';
import { blendBytes } from '../../helpers/scene-files';

/** The requeue route's refusals, in-process against a node without Blender. */
describe('POST /node/jobs/{id}/requeue refuses what it cannot do, in one sentence', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode({ blender: null });
  });
  afterAll(async () => {
    await t.stop();
  });

  /** A job with a render plan of frames 1-4, put in `status`. */
  async function plannedJob(status: 'rendering' | 'completed' | 'failed'): Promise<string> {
    const slug = await uploadBytes(t, 'shot.blend', blendBytes());
    const job = (await t.call('POST', '/jobs', { slug })).json;
    putJobInStatus(t.node.ctx, job.id, 'validated', { analysis: sampleAnalysis(), analysisId: crypto.randomUUID(), totalFrames: 4 });
    await t.node.ctx.runner.stop();
    const render = await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', frameRanges: ['1-4'] } });
    expect(render.status, JSON.stringify(render.json)).toBe(200);
    putJobInStatus(t.node.ctx, job.id, status);
    return job.id as string;
  }

  it('while the job renders: wait for it, or cancel it (409)', async () => {
    const id = await plannedJob('rendering');
    const res = await t.call('POST', `/node/jobs/${id}/requeue`, { frames: ['2'] });
    expect(res.status).toBe(409);
    expect(res.json.error).toMatchObject({ code: 'job_active', message: `Job ${id} is still rendering; render frames again once it has finished: wait for it, or cancel it first.` });
  });

  it('before it was ever rendered (409), and for a job that does not exist (404)', async () => {
    const slug = await uploadBytes(t, 'new.blend', blendBytes());
    const created = (await t.call('POST', '/jobs', { slug })).json;
    expect((await t.call('POST', `/node/jobs/${created.id}/requeue`, { failed: true })).json.error.code).toBe('invalid_state');
    expect((await t.call('POST', `/jobs/${created.id}/cancel`)).status).toBe(200);
    const canceled = await t.call('POST', `/node/jobs/${created.id}/requeue`, { failed: true });
    expect(canceled.status).toBe(409);
    expect(canceled.json.error.message).toBe(`Job ${created.id} was canceled before it rendered, so it has no frames to render again. Send the scene again.`);
    expect((await t.call('POST', '/node/jobs/00000000-0000-4000-8000-000000000000/requeue', { failed: true })).status).toBe(404);
  });

  it('frames that are not the job\'s, named (400), and bodies of neither shape (400)', async () => {
    const id = await plannedJob('completed');
    const res = await t.call('POST', `/node/jobs/${id}/requeue`, { frames: ['3-6'] });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'frames_not_in_job', message: 'Frames 5-6 are not part of this job (it renders 1-4).' });
    for (const body of [{}, { frames: ['2'], failed: true }, { failed: false }, { frames: '2' }]) {
      const bad = await t.call('POST', `/node/jobs/${id}/requeue`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.json.error.message).toContain('send {"frames": ["5", "9-12"]}');
    }
    expect(t.node.ctx.jobs.get(id)?.status).toBe('completed');
  });
});
