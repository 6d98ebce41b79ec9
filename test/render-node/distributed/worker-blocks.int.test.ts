import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startTestNode, uploadBytes, type TestNode } from '../../helpers/node';
import { requireRedis, startRedis, type TestRedis } from '../../helpers/redis';
import { blendBytes } from '../../helpers/scene-files';
import { putJobInStatus } from '../../helpers/job-status';
import { OpenApiChecker } from '../../helpers/openapi';
import { markWorkerOffline, reportWorker } from '../../../src/render-node/distributed/worker-registry';
import { blockedByHand, recordFailureBlock } from '../../../src/render-node/distributed/worker-blocks';
import { redisKeys, WORKER_KEEP_MS, WORKER_LIVE_MS } from '../../../src/render-node/distributed/protocol';
import type { WorkerInfo } from '../../../src/shared/api';

const redisServer = requireRedis();

/** A worker record as a running worker reports it. */
function workerInfo(id: string, name: string, more: Partial<WorkerInfo> = {}): WorkerInfo {
  const now = new Date().toISOString();
  return {
    id,
    name,
    host: `${name}-host`,
    blenderVersion: '3.4.1',
    devices: ['CPU'],
    eevee: null,
    threads: 1,
    tags: [],
    state: 'idle',
    reason: null,
    current: null,
    startedAt: now,
    lastSeenAt: now,
    framesRendered: 0,
    chunksFailed: 0,
    ...more,
  };
}

/**
 * The worker list and blocks of a distributed node (in process) on a real Redis, the workers reporting
 * themselves as render workers do; every answer is checked against docs/openapi.yaml.
 */
describe.skipIf(!redisServer)('render workers in view, and blocked by hand (real Redis, the node in process)', () => {
  let redis: TestRedis;
  let t: TestNode;
  let keys: Redis;
  const checker = new OpenApiChecker();
  const problems: string[] = [];

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await t.call(method, path, body);
    problems.push(...checker.problems({ method, path: `/api/external/v1${path}`, status: res.status, contentType: res.headers.get('content-type'), body: res.json }));
    return res;
  };
  const newJob = async () => {
    const slug = await uploadBytes(t, 'scene.blend', blendBytes());
    return (await t.call('POST', '/jobs', { slug })).json.id as string;
  };

  beforeAll(async () => {
    redis = await startRedis(redisServer!);
    t = await startTestNode({ blender: null, distributed: { redis: { url: redis.url }, chunkSize: 1 } });
    keys = new Redis(redis.url);
  });

  afterAll(async () => {
    keys?.disconnect();
    await t?.stop();
    await redis?.dispose();
  });

  it('lists live workers with their tags and failures, and for a day those that stopped, as offline', async () => {
    const now = Date.now();
    await reportWorker(keys, workerInfo('big:1', 'big', { tags: ['big-ram', 'gpu'], chunksFailed: 1, state: 'rendering', current: { jobId: 'j', frames: [5, 6], frame: 5 } }), now);
    await reportWorker(keys, workerInfo('plain:1', 'plain'), now);
    await markWorkerOffline(keys, workerInfo('gone:1', 'gone', { tags: ['gpu'] }), now);
    await reportWorker(keys, workerInfo('quiet:1', 'quiet'), now - WORKER_LIVE_MS - 5000);
    await reportWorker(keys, workerInfo('old:1', 'old'), now - WORKER_KEEP_MS - 5000);
    // restarted under the same name: the earlier record is not listed beside the live one
    await reportWorker(keys, workerInfo('plain:0', 'plain'), now - 60_000);

    const view = (await call('GET', '/node/workers')).json;
    expect(view.mode).toBe('distributed');
    expect(view.blocks).toEqual([]);
    expect(view.blenderVersions).toEqual(['3.4.1']);
    const byName = Object.fromEntries(view.workers.map((w: WorkerInfo) => [w.name, w]));
    expect(Object.keys(byName).sort()).toEqual(['big', 'gone', 'plain', 'quiet']);
    expect(view.workers.filter((w: WorkerInfo) => w.name === 'plain')).toHaveLength(1);
    expect(byName.big).toMatchObject({ state: 'rendering', tags: ['big-ram', 'gpu'], chunksFailed: 1, current: { jobId: 'j', frames: [5, 6], frame: 5 } });
    expect(byName.plain).toMatchObject({ id: 'plain:1', state: 'idle', tags: [] });
    expect(byName.gone).toMatchObject({ state: 'offline', reason: 'It was stopped.', current: null, tags: ['gpu'] });
    expect(byName.quiet).toMatchObject({ state: 'offline', reason: expect.stringMatching(/stopped reporting/) });
    expect(Date.parse(byName.quiet.lastSeenAt)).toBeLessThan(now - WORKER_LIVE_MS);
    expect(await keys.zscore(redisKeys.workers, 'old:1')).toBeNull();
  });

  it('blocks a worker by hand for a job and for every job, lists the blocks, and unblocks it', async () => {
    const jobId = await newJob();
    expect((await call('POST', '/node/workers/block', { worker: 'nobody' })).json.error).toMatchObject({ code: 'not_found', message: expect.stringContaining('"nobody"') });
    expect((await call('POST', '/node/workers/block', { worker: 'big', jobId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await call('POST', '/node/workers/block', { worker: 'big', extra: 1 })).status).toBe(400);

    const blocked = await call('POST', '/node/workers/block', { worker: 'big', jobId });
    expect(blocked.status).toBe(200);
    expect(blocked.json.blocks).toEqual([{ worker: 'big', jobId, by: 'hand', since: expect.any(String) }]);
    expect([...(await blockedByHand(keys, jobId))]).toEqual(['big']);
    const everywhere = await call('POST', '/node/workers/block', { worker: 'gone' });
    expect(everywhere.json.blocks).toEqual([
      { worker: 'gone', jobId: null, by: 'hand', since: expect.any(String) },
      { worker: 'big', jobId, by: 'hand', since: expect.any(String) },
    ]);
    expect([...(await blockedByHand(keys, jobId))].sort()).toEqual(['big', 'gone']);

    const unblocked = await call('POST', '/node/workers/unblock', { worker: 'big', jobId });
    expect(unblocked.json.blocks).toEqual([{ worker: 'gone', jobId: null, by: 'hand', since: expect.any(String) }]);
    expect((await call('POST', '/node/workers/unblock', { worker: 'gone' })).json.blocks).toEqual([]);
    expect((await call('POST', '/node/workers/unblock', { worker: 'gone' })).status).toBe(200);
    expect([...(await blockedByHand(keys, jobId))]).toEqual([]);
  });

  it('shows a block after failures, forgets the failures when unblocked, and hides blocks of jobs that ended', async () => {
    const jobId = await newJob();
    await keys.hset(redisKeys.failures(jobId), 'plain', '2');
    await recordFailureBlock(keys, jobId, 'plain');
    expect((await call('GET', '/node/workers')).json.blocks).toEqual([{ worker: 'plain', jobId, by: 'failures', since: expect.any(String) }]);
    expect([...(await blockedByHand(keys, jobId))]).toEqual([]);
    // a block by hand replaces it; a later failure block leaves the hand block as it is
    await call('POST', '/node/workers/block', { worker: 'plain', jobId });
    await recordFailureBlock(keys, jobId, 'plain');
    expect((await call('GET', '/node/workers')).json.blocks).toEqual([{ worker: 'plain', jobId, by: 'hand', since: expect.any(String) }]);
    await call('POST', '/node/workers/unblock', { worker: 'plain', jobId });
    expect(await keys.hget(redisKeys.failures(jobId), 'plain')).toBeNull();

    const ended = await newJob();
    await call('POST', '/node/workers/block', { worker: 'plain', jobId: ended });
    putJobInStatus(t.node.ctx, ended, 'canceled');
    expect((await call('GET', '/node/workers')).json.blocks).toEqual([]);
    expect(await keys.hget(redisKeys.jobBlocks(ended), 'plain')).toContain('"hand"');
  });

  it('ignores block records in Redis that do not parse', async () => {
    const jobId = await newJob();
    await keys.hset(redisKeys.jobBlocks(jobId), 'plain', 'not json');
    await keys.zadd(redisKeys.blockedJobs, Date.now(), jobId);
    await keys.hset(redisKeys.everyJobBlocks, 'big', JSON.stringify({ by: 'someone' }));
    expect((await call('GET', '/node/workers')).json.blocks).toEqual([]);
    await keys.del(redisKeys.everyJobBlocks);
    expect(problems).toEqual([]);
  });
});
