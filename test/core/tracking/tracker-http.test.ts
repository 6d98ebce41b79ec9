import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/api-client';
import { JobTracker } from '../../../src/core/tracking/tracker';
import { trackerWaiter } from '../../../src/core/lifecycle/wait-for-job';
import { FakeApi } from '../../helpers/fake-api-server';
import { failWith, rateLimited } from '../../helpers/hostile-server';

let api: FakeApi;
afterEach(() => api.server.close());

async function renderingJob(client: ApiClient, api: FakeApi) {
  const target = await client.createUpload({ fileName: 'a.blend', fileType: 'blend' });
  await fetch(target.uploadUrl, { method: 'PUT', body: 'BLENDER', headers: { 'content-type': 'application/octet-stream' } });
  const job = await client.createJob(target.slug);
  await client.validateJob(job.id);
  await client.getJob(job.id);
  await client.renderJob(job.id, { colorManagementPreset: 'default' });
  api.server.requests.length = 0;
  return job.id;
}

describe('JobTracker over HTTP', () => {
  it('follows jobs that progress over ticks with one progress request per tick', async () => {
    api = await FakeApi.start({ frames: 4 });
    const client = new ApiClient({ baseUrl: api.server.url, apiKey: 'RJ-t', sleep: async () => undefined });
    const ids = [await renderingJob(client, api), await renderingJob(client, api), await renderingJob(client, api)];
    const tracker = new JobTracker({ client, activeIntervalMs: 5 });
    const progress: string[] = [];
    tracker.on('progress', ({ jobId, completedFrames }) => progress.push(`${ids.indexOf(jobId)}:${completedFrames}`));
    const waiter = trackerWaiter(tracker);
    const done = await Promise.all(ids.map((id) => waiter(id, (job) => job.status === 'completed')));
    tracker.stop();
    expect(done.map((j) => j.status)).toEqual(['completed', 'completed', 'completed']);
    expect(progress).toContain('0:4');
    const progressCalls = api.count('GET', '/api/external/v1/jobs/progress');
    const jobCalls = api.server.requests.filter((r) => /\/jobs\/[0-9a-f-]{36}$/.test(r.path)).length;
    expect(jobCalls).toBeLessThanOrEqual(ids.length * 4);
    expect(progressCalls).toBeGreaterThanOrEqual(2);
  });

  it('slows down through a 429 storm and carries on', async () => {
    api = await FakeApi.start({ frames: 2 });
    const client = new ApiClient({ baseUrl: api.server.url, apiKey: 'RJ-t', sleep: async () => undefined });
    const id = await renderingJob(client, api);
    api.server.next('GET', '/api/external/v1/jobs/progress', rateLimited('0'), 3);
    const tracker = new JobTracker({ client, activeIntervalMs: 5, maxErrorBackoffMs: 20 });
    const errors: number[] = [];
    tracker.on('error', ({ retryInMs }) => errors.push(retryInMs));
    const job = await trackerWaiter(tracker)(id, (j) => j.status === 'completed');
    tracker.stop();
    expect(job.status).toBe('completed');
    expect(errors).toEqual([10, 20, 20]);
  });

  it('gives up at once when the server rejects the key, instead of retrying forever', async () => {
    api = await FakeApi.start({ frames: 50 });
    const client = new ApiClient({ baseUrl: api.server.url, apiKey: 'RJ-t', sleep: async () => undefined });
    const id = await renderingJob(client, api);
    api.server.next('GET', '/api/external/v1/jobs/progress', failWith(401, 'key revoked'));
    const tracker = new JobTracker({ client, activeIntervalMs: 5 });
    const error = await trackerWaiter(tracker)(id, (j) => j.status === 'completed').catch((e: unknown) => e);
    tracker.stop();
    expect(error).toMatchObject({ kind: 'auth', status: 401 });
    expect((error as Error).message).toContain('Update the key for this server.');
  });
});
