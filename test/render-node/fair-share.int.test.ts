import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { startTestNode, uploadBytes, waitForJob, type TestNode } from '../helpers/node';
import { createKey } from '../../src/render-node/keys';
import { probeBlender, type BlenderInfo } from '../../src/render-node/blender/probe';

const blenderPath = requireBlender();
const ENDED = ['completed', 'failed', 'canceled'];

/** The same API calls as `t.call`, with another key. */
function withKey(t: TestNode, key: string): TestNode {
  return {
    ...t,
    key,
    call: async (method, path, body) => {
      const res = await fetch(t.api + path, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
    },
  };
}

async function startRender(t: TestNode, scene: Buffer, config: Record<string, unknown>): Promise<string> {
  const slug = await uploadBytes(t, 'fair.blend', scene);
  const job = (await t.call('POST', '/jobs', { slug })).json;
  await t.call('POST', `/jobs/${job.id}/validate`);
  const validated = await waitForJob(t, job.id, (j) => j.status !== 'validating');
  expect(validated.status, JSON.stringify(validated.failedReason)).toBe('validated');
  const res = await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', ...config } });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return job.id;
}

describe.skipIf(!blenderPath)('render slots between keys and the job time limit (real Blender)', () => {
  let blender: BlenderInfo;
  let long: Buffer;
  let t: TestNode | null = null;
  beforeAll(async () => {
    blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    long = await readFile(await makeSampleScene(await mkdtemp(join(tmpdir(), 'rd-fair-')), { frames: 40 }));
  });
  afterEach(async () => {
    await t?.stop();
    t = null;
  });

  it("one key's long render gives the only slot to another key's 1-frame render, then finishes", async () => {
    t = await startTestNode({ blender, concurrency: { renders: 1 }, renderTurnMs: 1500 });
    const other = withKey(t, createKey(t.node.ctx.db, 'second key').key);
    const a = await startRender(t, long, { resolution: [128, 72], sampleCount: 32 });
    await waitForJob(t, a, (j) => j.progress.completedFrames >= 1 || ENDED.includes(j.status));
    const b = await startRender(other, long, { frameRanges: ['1'] });
    const bDone = await waitForJob(other, b, (j) => ENDED.includes(j.status));
    expect(bDone.status, JSON.stringify(bDone.failedReason)).toBe('completed');
    const aWhenBDone = t.node.ctx.jobs.get(a)!;
    expect(aWhenBDone.status).not.toBe('completed');
    expect(aWhenBDone.completedFrames).toBeLessThan(40);
    const aDone = await waitForJob(t, a, (j) => ENDED.includes(j.status), 300_000);
    expect(aDone.status, JSON.stringify(aDone.failedReason)).toBe('completed');
    expect(aDone.progress).toEqual({ completedFrames: 40, totalFrames: 40 });
  });

  it('a render past the job time limit fails saying so, and keeps the frames it wrote', async () => {
    t = await startTestNode({ blender, limits: { jobTimeLimitMs: 4000 } });
    const id = await startRender(t, long, { resolution: [128, 72], sampleCount: 32 });
    const ended = await waitForJob(t, id, (j) => ENDED.includes(j.status));
    expect(ended.status).toBe('failed');
    expect(ended.failedReason).toMatchObject({ name: 'TimeLimitExceeded', type: 'limit' });
    expect(ended.failedReason.message).toMatch(/longer than this render node allows for one job \(4 s\)/);
    expect(ended.progress.completedFrames).toBeLessThan(40);
    expect(t.node.ctx.jobs.frames(id)).toHaveLength(ended.progress.completedFrames);
  });
});
