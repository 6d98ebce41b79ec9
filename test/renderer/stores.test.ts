import { beforeEach, describe, expect, it } from 'vitest';
import type { RenderdropBridge } from '../../src/shared/contract/bridge';
import type { AppEvent } from '../../src/shared/contract/events';
import { useTransport } from '../../src/renderer/bridge/bridge';
import { createEventRouter } from '../../src/renderer/lib/event-router';
import { selectActiveCount, selectVisibleQueue } from '../../src/renderer/stores/queue-selectors';
import { useQueueStore } from '../../src/renderer/stores/queue-store';
import { useSubmissionsStore } from '../../src/renderer/stores/submissions-store';
import { useNotificationsStore } from '../../src/renderer/stores/notifications-store';
import { useTransfersStore } from '../../src/renderer/stores/transfers-store';
import { useAppStore } from '../../src/renderer/stores/app-store';
import { useDetailStore } from '../../src/renderer/stores/detail-store';
import { summary } from './fixtures';

const calls: { name: string; request: unknown }[] = [];
const fakeBridge: RenderdropBridge = {
  async call(name, request) {
    calls.push({ name, request });
    if (name === 'jobs.list') {
      return { ok: true, value: { jobs: [summary('from-server', 'rendering')], total: 1, counts: { all: 1, active: 1, review: 0, completed: 0, failed: 0, canceled: 0 }, profileId: 'p' } } as never;
    }
    return { ok: false, error: { kind: 'unknown', message: 'not in this test' } };
  },
  subscribe: () => () => undefined,
};

beforeEach(() => {
  useTransport(fakeBridge);
  calls.length = 0;
  useQueueStore.setState({ byId: new Map(), version: 0, filter: 'all', search: '', selectedId: null, loaded: false, profileId: null });
  useSubmissionsStore.setState({ byId: {}, dropped: [], reviewId: null });
});

describe('queue store and selectors', () => {
  it('filters, searches and counts, and computes once per change', () => {
    useQueueStore.getState().replace([summary('a', 'rendering', 'forest.blend'), summary('b', 'completed', 'city.blend'), summary('c', 'failed', 'forest-night.blend')], 'p');
    const state = () => useQueueStore.getState();
    const first = selectVisibleQueue(state());
    expect(first.counts).toMatchObject({ all: 3, active: 1, completed: 1, failed: 1 });
    expect(selectVisibleQueue(state())).toBe(first);
    useQueueStore.getState().setSearch('forest');
    expect(selectVisibleQueue(state()).jobs.map((j) => j.id).sort()).toEqual(['a', 'c']);
    useQueueStore.getState().setFilter('failed');
    expect(selectVisibleQueue(state()).jobs.map((j) => j.id)).toEqual(['c']);
    useQueueStore.getState().upsert([{ ...summary('a', 'completed', 'forest.blend') }]);
    expect(selectActiveCount(state())).toBe(0);
  });

  it('keeps the selection only while the job is still listed', () => {
    useQueueStore.getState().replace([summary('a', 'rendering')], 'p');
    useQueueStore.getState().select('a');
    useQueueStore.getState().replace([summary('b', 'rendering')], 'p');
    expect(useQueueStore.getState().selectedId).toBeNull();
  });

  it('loads the queue through the bridge', async () => {
    await useQueueStore.getState().load();
    expect(calls).toEqual([{ name: 'jobs.list', request: {} }]);
    expect([...useQueueStore.getState().byId.keys()]).toEqual(['from-server']);
  });
});

describe('event router', () => {
  it('batches job updates into one queue change and routes the other events to their store', async () => {
    let flush: (() => void) | null = null;
    const route = createEventRouter((f) => {
      flush = f;
    });
    const before = useQueueStore.getState().version;
    for (let i = 0; i < 100; i++) route({ name: 'job.updated', payload: { ...summary('x', 'rendering'), completedFrames: i } } as AppEvent);
    route({ name: 'job.updated', payload: summary('y', 'rendering') });
    expect(useQueueStore.getState().version).toBe(before);
    flush!();
    expect(useQueueStore.getState().version).toBe(before + 1);
    expect(useQueueStore.getState().byId.get('x')?.completedFrames).toBe(99);

    route({ name: 'transfer.progress', payload: { id: 'upload:s1', kind: 'upload', submissionId: 's1', jobId: null, bytes: 5, total: 10, rate: 1, etaSeconds: 5, done: false } });
    expect(useTransfersStore.getState().byId['upload:s1']?.bytes).toBe(5);
    route({ name: 'notification', payload: { id: 'n', level: 'success', title: 'Render complete', message: 'ok', jobId: null, at: '' } });
    expect(useNotificationsStore.getState().items[0]?.title).toBe('Render complete');
  });

  it('opens the review sheet when a submission becomes ready, and closes it when it moves on', () => {
    const route = createEventRouter(() => undefined);
    const view = { id: 's1', fileName: 'a.blend', size: 1, jobId: 'j', createdAt: '', error: null, canRetry: false, scenes: null, packing: null };
    route({ name: 'submission.updated', payload: { ...view, phase: 'validating' } });
    expect(useSubmissionsStore.getState().reviewId).toBeNull();
    route({ name: 'submission.updated', payload: { ...view, phase: 'review' } });
    expect(useSubmissionsStore.getState().reviewId).toBe('s1');
    route({ name: 'submission.updated', payload: { ...view, id: 's2', phase: 'review' } });
    expect(useSubmissionsStore.getState().reviewId).toBe('s1');
    route({ name: 'submission.updated', payload: { ...view, phase: 'starting' } });
    expect(useSubmissionsStore.getState().reviewId).toBeNull();
    route({ name: 'submission.removed', payload: { id: 's2' } });
    expect(Object.keys(useSubmissionsStore.getState().byId)).toEqual(['s1']);
  });

  it('brings a job forward when the desktop app asks (a native notification was clicked)', () => {
    const route = createEventRouter(() => undefined);
    useAppStore.getState().setView('settings');
    route({ name: 'job.show', payload: { jobId: 'j1' } });
    expect(useAppStore.getState().view).toBe('queue');
    expect(useDetailStore.getState().jobId).toBe('j1');
    expect(calls).toContainEqual({ name: 'jobs.get', request: { jobId: 'j1' } });
  });
});
