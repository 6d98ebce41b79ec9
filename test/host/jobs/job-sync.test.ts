import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/api-client';
import { JobTracker } from '../../../src/core/tracking/tracker';
import { ConnectionService } from '../../../src/host/profiles/connection-service';
import { HostEvents } from '../../../src/host/environment/host-events';
import { ProfileJobs } from '../../../src/host/jobs/profile-jobs';
import { JobSync } from '../../../src/host/jobs/job-sync';
import { SubmittedJobs } from '../../../src/host/jobs/submitted-jobs';
import type { AppEvent } from '../../../src/shared/contract/events';
import { FakeTime } from '../../helpers/fake-time';
import { startTestNode, type TestNode } from '../../helpers/node';
import { putJobInStatus } from '../../helpers/job-status';

let node: TestNode | null = null;
const closers: (() => void)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0)) close();
  await node?.stop();
  node = null;
});

/** A job made on the node directly, as another machine's upload would make it. */
function addJob(t: TestNode, name: string, status: 'created' | 'rendering' | 'completed' = 'created'): string {
  const slug = `sync-test-${name}`;
  const job = t.node.ctx.jobs.create({ userId: 'test', uploadSlug: slug, sceneFile: { fileName: name, fileType: 'blend', size: 1, slug, scenePath: name } });
  if (status !== 'created') putJobInStatus(t.node.ctx, job.id, status, { totalFrames: 10, completedFrames: status === 'completed' ? 10 : 0 });
  return job.id;
}

async function setup(options: { pageSize?: number } = {}) {
  node = await startTestNode({ blender: null, rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  const time = new FakeTime(Date.now());
  let lists = 0;
  const client = new ApiClient({ baseUrl: node.url, apiKey: node.key });
  const counting = {
    listJobs: (...args: Parameters<ApiClient['listJobs']>) => {
      lists++;
      return client.listJobs(...args);
    },
  };
  const events = new HostEvents();
  const seen: AppEvent[] = [];
  events.subscribe((event) => seen.push(event));
  const tracker = new JobTracker({ client, clock: time, timers: time.timers });
  const connection = new ConnectionService({ events, clock: time, blocked: null });
  const jobs = new ProfileJobs({ client, profileId: 'p', events, connection, submitted: new SubmittedJobs(), tracker });
  const sync = new JobSync({ client: counting, jobs, tracker, events, clock: time, timers: time.timers, ...options });
  closers.push(() => sync.close(), () => tracker.stop(), () => jobs.close());
  return { t: node, time, jobs, sync, tracker, seen, lists: () => lists };
}

describe('JobSync (the queue kept true to a real node)', () => {
  it('brings in a job made elsewhere after the list was loaded, and has the tracker watch it', async () => {
    const { t, jobs, sync, tracker, seen, time } = await setup();
    addJob(t, 'old.blend', 'completed');
    await jobs.load();
    sync.start();
    expect(jobs.queue.size).toBe(1);
    const id = addJob(t, 'from-the-cli.blend', 'rendering');
    time.current += 1_500;
    const view = await sync.now();
    expect(jobs.queue.get(id)?.fileName).toBe('from-the-cli.blend');
    expect(tracker.isWatching(id)).toBe(true);
    expect(view.error).toBeNull();
    expect(view.lastSyncAt).not.toBeNull();
    expect(seen.some((e) => e.name === 'job.updated' && e.payload.id === id)).toBe(true);
    expect(seen.filter((e) => e.name === 'jobs.synced').map((e) => e.name === 'jobs.synced' && e.payload.syncing)).toEqual([true, false]);
  });

  it('follows a status the server changed on a job of the first page', async () => {
    const { t, jobs, sync } = await setup();
    const id = addJob(t, 'a.blend', 'rendering');
    await jobs.load();
    putJobInStatus(t.node.ctx, id, 'completed', { completedFrames: 10 });
    await sync.now();
    expect(jobs.queue.get(id)?.status).toBe('completed');
  });

  it('reads further pages only while every job of a page is new (a burst from another machine)', async () => {
    const { t, jobs, sync, lists } = await setup({ pageSize: 5 });
    for (let i = 0; i < 3; i++) addJob(t, `old-${i}.blend`, 'completed');
    await jobs.load();
    for (let i = 0; i < 12; i++) addJob(t, `new-${i}.blend`, 'completed');
    const before = lists();
    await sync.now();
    expect(lists() - before).toBe(3);
    expect(jobs.queue.size).toBe(15);
    const again = lists();
    await sync.now();
    expect(lists() - again).toBe(0);
  });

  it('checks at once when asked, but not twice within a second, and faster while a job is active', async () => {
    const { t, jobs, sync, time, lists } = await setup();
    addJob(t, 'done.blend', 'completed');
    await jobs.load();
    sync.start();
    expect(sync.view().nextInMs).toBe(8_000);
    time.current += 2_000;
    await sync.now();
    const after = lists();
    await sync.now();
    expect(lists()).toBe(after);
    addJob(t, 'busy.blend', 'rendering');
    time.current += 2_000;
    await sync.now();
    expect(sync.view().nextInMs).toBe(5_000);
  });
});
