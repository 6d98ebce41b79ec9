import { describe, expect, it } from 'vitest';
import { blockWords, formatWorkers, workerStateWords } from '../../src/cli/output/format-workers';
import { formatTimestamp } from '../../src/cli/output/format-jobs';
import { timeAgo } from '../../src/shared/text/time-ago';
import type { WorkerInfo } from '../../src/shared/api/workers';

const now = new Date('2025-03-14T10:00:00Z');
const worker = (over: Partial<WorkerInfo>): WorkerInfo => ({
  id: 'box1:100:abc',
  name: 'render-01',
  host: 'box1',
  blenderVersion: '4.2.3',
  devices: ['CPU', 'CUDA'],
  threads: null,
  state: 'idle',
  current: null,
  startedAt: '2025-03-14T09:00:00Z',
  lastSeenAt: '2025-03-14T09:59:58Z',
  framesRendered: 12,
  ...over,
});

describe('node workers output', () => {
  it('says how long ago', () => {
    expect(timeAgo('2025-03-14T09:59:58Z', now)).toBe('2 s ago');
    expect(timeAgo('2025-03-14T09:55:00Z', now)).toBe('5 min ago');
    expect(timeAgo('2025-03-14T07:00:00Z', now)).toBe('3 h ago');
  });

  it('lists each worker with what it is doing under a summary', () => {
    const lines = formatWorkers(
      {
        mode: 'distributed',
        redis: 'redis://10.0.0.5:6379',
        chunks: { waiting: 3, active: 1, delayed: 0 },
        workers: [
          worker({ state: 'rendering', current: { jobId: '1f2e3d4c-5b6a-4798-8a9b-0c1d2e3f4a5b', frames: [5, 6, 7, 8], frame: 6 } }),
          worker({ id: 'box2:1:x', name: 'render-02', host: 'box2', blenderVersion: '3.6.5', devices: ['CPU'], framesRendered: 0 }),
        ],
      },
      now,
    );
    expect(lines).toEqual([
      '2 render workers on redis://10.0.0.5:6379; chunks: 3 waiting, 1 rendering, 0 to retry.',
      'NAME       HOST  TAGS  BLENDER  DEVICES   LAST SEEN  FRAMES  FAILURES  DOING',
      'render-01  box1  -     4.2.3    CPU,CUDA  2 s ago        12         -  job 1f2e3d4c frames 5-8 (on 6)',
      'render-02  box2  -     3.6.5    CPU       2 s ago         0         -  idle',
    ]);
  });

  it('says why a worker whose disk is full takes no chunks', () => {
    const reason = 'Disk full: frame 3 was cut short while being written, and 2.1 MB is free. It takes no chunks until it has 69.2 MB free.';
    const lines = formatWorkers({ mode: 'distributed', redis: 'redis://h:6379', chunks: { waiting: 1, active: 0, delayed: 0 }, workers: [worker({ state: 'disk-full', reason })] }, now);
    expect(lines.at(-1)).toBe(`render-01  box1  -     4.2.3    CPU,CUDA  2 s ago        12         -  ${reason}`);
  });

  it('lists tags, failures, offline workers and the blocks of a studio node', () => {
    const lines = formatWorkers(
      {
        mode: 'distributed',
        redis: 'redis://h:6379',
        chunks: { waiting: 0, active: 1, delayed: 0 },
        workers: [
          worker({ tags: ['big-ram', 'gpu'], chunksFailed: 0, state: 'rendering', current: { jobId: 'abcdef12-0000-4000-8000-000000000000', frames: [1, 2, 3, 4], frame: null } }),
          worker({ id: 'box2:1:x', name: 'render-02', host: 'box2', tags: [], chunksFailed: 2, state: 'offline', lastSeenAt: '2025-03-14T09:42:00Z' }),
        ],
        blocks: [{ worker: 'render-02', jobId: 'abcdef12-0000-4000-8000-000000000000', by: 'failures', since: '2025-03-14T09:40:00Z' }],
      },
      now,
    );
    expect(lines[0]).toBe('1 render worker (and 1 offline) on redis://h:6379; chunks: 0 waiting, 1 rendering, 0 to retry.');
    expect(lines[1]).toMatch(/^NAME +HOST +TAGS +BLENDER +DEVICES +LAST SEEN +FRAMES +FAILURES +DOING$/);
    expect(lines[2]).toMatch(/^render-01 +box1 +big-ram,gpu +4\.2\.3 +CPU,CUDA +2 s ago +12 +0 +job abcdef12 frames 1-4$/);
    expect(lines[3]).toMatch(/^render-02 +box2 +- +4\.2\.3 +CPU,CUDA +18 min ago +12 +2 +offline$/);
    expect(lines.slice(4)).toEqual(['', 'Blocked:', `  render-02 for job abcdef12 (it failed its frames) since ${formatTimestamp('2025-03-14T09:40:00Z')}`]);
    expect(workerStateWords(worker({ state: 'idle' }))).toBe('idle');
    expect(blockWords({ worker: 'render-03', jobId: null, by: 'hand', since: '2025-03-14T09:40:00Z' })).toMatch(/^render-03 for every job \(by hand\) since /);
  });

  it('says what to do when there are no workers, or the node renders itself', () => {
    expect(formatWorkers({ mode: 'distributed', redis: 'redis://h:6379', chunks: { waiting: 2, active: 0, delayed: 0 }, workers: [] }, now)).toEqual([
      '0 render workers on redis://h:6379; chunks: 2 waiting, 0 rendering, 0 to retry.',
      'Start one on each render machine: renderdrop node worker --redis <url>',
    ]);
    expect(formatWorkers({ mode: 'embedded' })[0]).toMatch(/own Blender; it has no render workers/);
    expect(formatWorkers({ mode: 'embedded', tags: ['gpu'] })[0]).toMatch(/ Its tags: gpu\.$/);
  });
});
