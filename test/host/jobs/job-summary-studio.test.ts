import { describe, expect, it } from 'vitest';
import { toJobSummary } from '../../../src/host/jobs/job-summary';
import { studioChoiceOf } from '../../../src/host/submissions/review-sheet';

const noWorker = { warnings: [{ code: 'no-render-workers', message: 'No render worker is connected to this node right now; the render will wait until one starts.' }] };
const job = (over: Record<string, unknown>) =>
  toJobSummary({ id: 'j1', status: 'booting', workspaceId: 'w', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:01:00Z', analysis: noWorker, ...over } as never, {});

describe("a job summary on a studio's Renderdrop node", () => {
  it('carries the priority and required tags, and nothing from a farm without them', () => {
    expect(job({ priority: 75, requires: ['big-ram'] })).toMatchObject({ priority: 75, requires: ['big-ram'] });
    const plain = job({});
    expect(plain.priority).toBeUndefined();
    expect(plain.requires).toBeUndefined();
  });

  it('reads when a waiting job starts, or the words why it cannot say', () => {
    expect(job({ waiting: { jobsAhead: 2, startsInSeconds: 240 } }).waiting).toEqual({ jobsAhead: 2, startsInSeconds: 240, reason: null });
    expect(job({ waiting: { jobsAhead: 0, startsInSeconds: null }, statusMessage: 'Waiting for a render worker tagged big-ram' }).waiting).toEqual({ jobsAhead: 0, startsInSeconds: null, reason: 'Waiting for a render worker tagged big-ram' });
  });

  it("drops the mark of 'no render worker' once the node says where the job stands, and keeps it from a farm that does not", () => {
    expect(job({}).warnings).toEqual(['no render worker connected']);
    expect(job({ waiting: { jobsAhead: 0, startsInSeconds: null }, statusMessage: 'Waiting for a render worker' }).warnings).toEqual([]);
    expect(job({ waiting: null }).warnings).toEqual([]);
    expect(job({ status: 'rendering', waiting: null }).warnings).toEqual([]);
  });
});

describe('what the review offers on a Renderdrop node', () => {
  it('offers priority and the tags of the workers connected, on a node that knows them', () => {
    const base = { mode: 'distributed' as const, redis: 'redis://h:6379', chunks: { waiting: 0, active: 0, delayed: 0 } };
    const w = (name: string, tags: string[], state: 'idle' | 'offline' = 'idle') => ({ id: name, name, host: name, blenderVersion: '4.3.2', devices: ['CPU'], threads: null, tags, state, current: null, startedAt: '', lastSeenAt: '', framesRendered: 0 });
    expect(studioChoiceOf({ ...base, workers: [w('a', ['gpu']), w('b', ['big-ram', 'gpu']), w('c', ['old'], 'offline')], blocks: [] })).toEqual({ workerTags: ['big-ram', 'gpu'], renders: 'workers' });
    expect(studioChoiceOf({ ...base, workers: [w('a', ['gpu'])] })).toBeNull();
    expect(studioChoiceOf({ mode: 'embedded', tags: [] })).toEqual({ workerTags: [], renders: 'node' });
    expect(studioChoiceOf({ mode: 'embedded' })).toBeNull();
    expect(studioChoiceOf(null)).toBeNull();
  });
});
