import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { startRenderJob, startTestNode, waitForJob, type TestNode } from '../helpers/node';
import { createKey } from '../../src/render-node/store/keys';
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
    const a = await startRenderJob(t, 'fair.blend', long, { resolution: [256, 144], sampleCount: 64 });
    await waitForJob(t, a, (j) => j.progress.completedFrames >= 1 || ENDED.includes(j.status));
    const b = await startRenderJob(other, 'fair.blend', long, { frameRanges: ['1'] });
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
    const id = await startRenderJob(t, 'fair.blend', long, { resolution: [256, 256], sampleCount: 512 });
    const ended = await waitForJob(t, id, (j) => ENDED.includes(j.status));
    expect(ended.status).toBe('failed');
    expect(ended.failedReason).toMatchObject({ name: 'TimeLimitExceeded', type: 'limit' });
    expect(ended.failedReason.message).toMatch(/longer than this render node allows for one job \(4 s\)/);
    expect(ended.progress.completedFrames).toBeLessThan(40);
    expect(t.node.ctx.jobs.frames(id)).toHaveLength(ended.progress.completedFrames);
  });
});
