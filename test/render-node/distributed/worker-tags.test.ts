import { describe, expect, it } from 'vitest';
import { fitsChunk, routeChunk } from '../../../src/render-node/distributed/blender-versions';
import { waitingNote, WAITING_NOTES } from '../../../src/render-node/distributed/waiting-note';
import { missingTags, nodeTagsNote, tagsInWords } from '../../../src/render-node/plan/worker-tags';
import type { WorkerInfo } from '../../../src/shared/api';

const w = (name: string, tags: string[] = [], blenderVersion = '4.3.2') => ({ name, blenderVersion, eevee: null, tags });
const chunk = (requires: string[] = [], blender: string | null = '4.3.2') => ({ blender, engine: 'CYCLES', requires });
const base = { failures: {}, maxFailures: 2 };

describe('routing with worker tags', () => {
  it('renders a chunk only on a worker carrying every tag its job requires', () => {
    expect(routeChunk({ ...base, chunk: chunk(['big-ram']), self: w('big', ['big-ram', 'gpu']), others: [] })).toBe('render');
    expect(routeChunk({ ...base, chunk: chunk(['big-ram']), self: w('plain'), others: [w('big', ['big-ram'])] })).toBe('hand-over');
    expect(routeChunk({ ...base, chunk: chunk(['big-ram']), self: w('plain'), others: [] })).toBe('hand-over');
    expect(routeChunk({ ...base, chunk: chunk(['gpu', 'big-ram']), self: w('gpu', ['gpu']), others: [] })).toBe('hand-over');
    expect(routeChunk({ ...base, chunk: chunk(), self: w('big', ['big-ram']), others: [] })).toBe('render');
  });

  it('keeps Blender-version and EEVEE routing on top of the tags', () => {
    expect(fitsChunk(w('big', ['big-ram'], '3.4.1'), chunk(['big-ram'], '4.3.2'))).toBe(false);
    expect(fitsChunk({ ...w('big', ['big-ram']), eevee: false }, { blender: '4.3.2', engine: 'BLENDER_EEVEE_NEXT', requires: ['big-ram'] })).toBe(false);
    expect(fitsChunk(w('big', ['big-ram']), chunk(['big-ram'], null))).toBe(true);
    expect(fitsChunk({ name: 'old', blenderVersion: '4.3.2' }, chunk(['gpu']))).toBe(false);
  });

  it('a worker blocked by hand never renders the job, even when no other worker can', () => {
    const blocked = new Set(['big']);
    expect(routeChunk({ ...base, blocked, chunk: chunk(), self: w('big'), others: [] })).toBe('hand-over');
    expect(routeChunk({ ...base, blocked, chunk: chunk(), self: w('plain'), others: [w('big')] })).toBe('render');
  });

  it('a worker blocked after failures hands over only to a worker that fits, is not blocked by hand and has not failed as often', () => {
    const failures = { a: 2 };
    expect(routeChunk({ failures, maxFailures: 2, chunk: chunk(), self: w('a'), others: [w('b')] })).toBe('hand-over');
    expect(routeChunk({ failures, maxFailures: 2, chunk: chunk(), self: w('a'), others: [w('b')], blocked: new Set(['b']) })).toBe('render');
    expect(routeChunk({ failures, maxFailures: 2, chunk: chunk(['gpu']), self: w('a', ['gpu']), others: [w('b')] })).toBe('render');
    expect(routeChunk({ failures, maxFailures: 2, chunk: chunk(['gpu']), self: w('a', ['gpu']), others: [w('b', ['gpu'])] })).toBe('hand-over');
  });

  it('names missing tags, and tags in words', () => {
    expect(missingTags(['gpu', 'big-ram'], ['big-ram'])).toEqual(['gpu']);
    expect(missingTags(undefined, undefined)).toEqual([]);
    expect(tagsInWords(['big-ram'])).toBe('big-ram');
    expect(tagsInWords(['gpu', 'big-ram'])).toBe('gpu and big-ram');
    expect(tagsInWords(['gpu', 'big-ram', 'studio-b'])).toBe('gpu, big-ram and studio-b');
    expect(nodeTagsNote(['big-ram'], ['gpu'])).toBe('Waiting: the render node is not tagged big-ram');
    expect(nodeTagsNote(['gpu', 'big-ram'], [])).toBe('Waiting: the render node is not tagged gpu and big-ram');
    expect(nodeTagsNote(['gpu'], ['gpu', 'big-ram'])).toBeNull();
  });
});

describe('why a render that requires tags waits', () => {
  const worker = (name: string, tags: string[], more: Partial<WorkerInfo> = {}): WorkerInfo => ({
    id: name,
    name,
    host: 'box',
    blenderVersion: '4.3.2',
    devices: ['CPU'],
    threads: null,
    tags,
    state: 'idle',
    current: null,
    startedAt: '',
    lastSeenAt: '',
    framesRendered: 0,
    eevee: null,
    ...more,
  });
  const render = { blender: '4.3.2', saved: '4.3', engine: 'CYCLES', queued: { waiting: 2, active: 0 }, requires: ['big-ram'] };

  it('says which tags no connected worker carries, with or without workers', () => {
    expect(waitingNote(render, [worker('plain', ['gpu'])], false)).toBe('Waiting for a render worker tagged big-ram');
    expect(waitingNote(render, [], false)).toBe('Waiting for a render worker tagged big-ram');
    expect(waitingNote({ ...render, requires: ['gpu', 'big-ram'] }, [worker('gpu', ['gpu']), worker('big', ['big-ram'])], false)).toBe('Waiting for a render worker tagged gpu and big-ram');
    expect(waitingNote({ ...render, blender: null }, [worker('plain', [])], false)).toBe('Waiting for a render worker tagged big-ram');
  });

  it('says when workers with the tags lack the Blender version the render needs', () => {
    const old = worker('big', ['big-ram'], { blenderVersion: '3.4.1' });
    expect(waitingNote(render, [old, worker('plain', [])], false)).toBe('Waiting: no render worker tagged big-ram with Blender 4.3.2 is connected');
    expect(waitingNote({ ...render, blender: null, saved: '4.3' }, [old], false)).toBe('Waiting: no render worker tagged big-ram has Blender 4.3 or newer');
    expect(waitingNote({ ...render, engine: 'BLENDER_EEVEE_NEXT' }, [worker('big', ['big-ram'], { eevee: false })], false)).toBe(
      'Waiting: no render worker tagged big-ram with Blender 4.3.2 that can render EEVEE is connected',
    );
  });

  it('says when every worker that could take it is blocked for it, and nothing once one can', () => {
    const big = worker('big', ['big-ram']);
    expect(waitingNote({ ...render, blocked: new Set(['big']) }, [big, worker('plain', [])], false)).toBe(WAITING_NOTES.blocked);
    expect(waitingNote({ ...render, requires: [], blocked: new Set(['big', 'plain']) }, [big, worker('plain', [])], false)).toBe(WAITING_NOTES.blocked);
    expect(waitingNote({ ...render, blocked: new Set(['plain']) }, [big, worker('plain', [])], false)).toBeNull();
    expect(waitingNote({ ...render, blocked: new Set(['other']) }, [big, worker('big2', ['big-ram'], { state: 'disk-full' })], false)).toBeNull();
    expect(waitingNote({ ...render, blocked: new Set(['big']) }, [big, worker('big2', ['big-ram'], { state: 'disk-full' })], false)).toBe(WAITING_NOTES.disksFull);
  });
});
