import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, uploadBytes, type TestNode } from '../../helpers/node';
import { blenderInfo } from '../../helpers/blender-info';
import { putJobInStatus } from '../../helpers/job-status';
import { sampleAnalysis } from '../../fixtures/analysis';

async function createdJob(t: TestNode): Promise<string> {
  const slug = await uploadBytes(t, 'shot.blend', Buffer.from('BLENDER-v304 not really a scene'));
  return (await t.call('POST', '/jobs', { slug })).json.id as string;
}

/** A job moved straight to `validated` with a fixture analysis, then asked to render with `extra` in its config. */
async function renderRequested(t: TestNode, extra: Record<string, unknown> = {}): Promise<{ status: number; json: any }> {
  const id = await createdJob(t);
  putJobInStatus(t.node.ctx, id, 'validated', { analysis: sampleAnalysis({ frameEnd: 3 }), analysisId: crypto.randomUUID(), totalFrames: 3 });
  return t.call('POST', `/jobs/${id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', ...extra } });
}

const settings = (t: TestNode, id: string, body: unknown) => t.call('POST', `/node/jobs/${id}/settings`, body);

describe("a job's priority and required tags on the node (no render slot: renders wait)", () => {
  let t: TestNode;
  beforeAll(async () => {
    // No render runs (no slot): the tests read what the node says of waiting renders.
    t = await startTestNode({ blender: blenderInfo({ path: '/bin/false' }), concurrency: { renders: 0 } });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('gives every job its priority (50 unless asked) and required tags, and no waiting place before its render', async () => {
    const id = await createdJob(t);
    const job = (await t.call('GET', `/jobs/${id}`)).json.data;
    expect(job).toMatchObject({ priority: 50, requires: [], waiting: null });
  });

  it('keeps the priority and the tags (sorted) a render request asks for', async () => {
    const res = await renderRequested(t, { priority: 80, requires: ['gpu', 'big-ram'] });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ status: 'booting', priority: 80, requires: ['big-ram', 'gpu'] });
    expect(t.node.ctx.jobs.get(res.json.id)).toMatchObject({ priority: 80, requires: ['big-ram', 'gpu'] });
    expect(res.json.waiting).toEqual({ jobsAhead: expect.any(Number), startsInSeconds: null });
  });

  it('changes them while the job waits, and orders the waiting renders by the new priority at once', async () => {
    const first = (await renderRequested(t, { priority: 60 })).json.id as string;
    const second = (await renderRequested(t, { priority: 60 })).json.id as string;
    const ahead = async (id: string) => (await t.call('GET', `/jobs/${id}`)).json.data.waiting.jobsAhead as number;
    expect(await ahead(second)).toBe((await ahead(first)) + 1);

    const res = await settings(t, second, { priority: 100, requires: ['studio-b'] });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ id: second, status: 'booting', priority: 100, requires: ['studio-b'] });
    expect(res.json.waiting.jobsAhead).toBe(0);
    expect(await ahead(first)).toBeGreaterThan(0);

    const tags = await settings(t, second, { requires: [] });
    expect(tags.json).toMatchObject({ priority: 100, requires: [] });
  });

  it('changes them before validation too (any status until the job ends)', async () => {
    const id = await createdJob(t);
    const res = await settings(t, id, { priority: 0 });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'created', priority: 0 });
  });

  it('refuses, with 409 job_ended, a change once the job has ended', async () => {
    for (const status of ['completed', 'failed', 'canceled'] as const) {
      const id = await createdJob(t);
      putJobInStatus(t.node.ctx, id, status);
      const res = await settings(t, id, { priority: 10 });
      expect(res.status).toBe(409);
      expect(res.json.error.code).toBe('job_ended');
      expect(res.json.error.message).toMatch(new RegExp(`^Job ${id} has ended \\(${status}\\)`));
      expect(t.node.ctx.jobs.get(id)?.priority).toBe(50);
    }
  });

  it('answers 404 for a job the node does not have, and 400 for a body that is not a change', async () => {
    expect((await settings(t, '00000000-0000-4000-8000-000000000000', { priority: 10 })).status).toBe(404);
    const id = await createdJob(t);
    for (const body of [{}, { priority: 101 }, { priority: 5.5 }, { requires: ['GPU'] }, { requires: ['gpu', 'gpu'] }, { priority: 10, extra: 1 }]) {
      const res = await settings(t, id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe('invalid_request');
    }
    expect(t.node.ctx.jobs.get(id)?.priority).toBe(50);
  });
});
