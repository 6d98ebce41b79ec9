import { describe, expect, it } from 'vitest';
import { routeChunk } from '../../../src/render-node/distributed/blender-versions';
import { waitingNote, WAITING_NOTES } from '../../../src/render-node/distributed/waiting-note';
import { chooseBlenderVersion, compareBlenderVersions, opensSeries } from '../../../src/shared/blender-versions';

const w = (name: string, blenderVersion: string, eevee: boolean | null = null) => ({ name, blenderVersion, eevee });

describe('Blender versions', () => {
  it('compares versions part by part, and series ignoring the patch release', () => {
    expect(opensSeries('4.2.3', '4.2')).toBe(true);
    expect(opensSeries('4.2.0', '4.1')).toBe(true);
    expect(opensSeries('3.6.9', '4.0')).toBe(false);
    expect(opensSeries('4.10.0', '4.9')).toBe(true);
    expect(opensSeries('5.0.0', '4.5')).toBe(true);
    expect(opensSeries('4.1.9', '4.2')).toBe(false);
    expect(compareBlenderVersions('4.3.10', '4.3.9')).toBeGreaterThan(0);
    expect(compareBlenderVersions('4.3', '4.3.0')).toBe(0);
  });

  it('chooses the lowest version at or above the scene\'s, the newest when it is unknown, none when all are older', () => {
    const farm = ['5.2.2', '3.4.1', '4.3.2', '4.3.2'];
    expect(chooseBlenderVersion('3.4', farm)).toBe('3.4.1');
    expect(chooseBlenderVersion('3.6', farm)).toBe('4.3.2');
    expect(chooseBlenderVersion('4.3', farm)).toBe('4.3.2');
    expect(chooseBlenderVersion('5.2', farm)).toBe('5.2.2');
    expect(chooseBlenderVersion(null, farm)).toBe('5.2.2');
    expect(chooseBlenderVersion('5.3', farm)).toBeNull();
    expect(chooseBlenderVersion('3.4', [])).toBeNull();
  });
});

describe('chunk routing', () => {
  const base = { failures: {}, maxFailures: 2 };
  const cycles = (blender: string) => ({ blender, engine: 'CYCLES' });

  it('renders a chunk of its own Blender version, and hands over any other, even with no worker of that version connected', () => {
    expect(routeChunk({ ...base, chunk: cycles('3.4.1'), self: w('a', '3.4.1'), others: [w('b', '4.3.2')] })).toBe('render');
    expect(routeChunk({ ...base, chunk: cycles('3.4.1'), self: w('b', '4.3.2'), others: [w('a', '3.4.1')] })).toBe('hand-over');
    expect(routeChunk({ ...base, chunk: cycles('4.3.2'), self: w('a', '3.4.1'), others: [] })).toBe('hand-over');
    expect(routeChunk({ ...base, chunk: cycles('4.3.2'), self: w('a', '4.3.1'), others: [] })).toBe('hand-over');
  });

  it('leaves EEVEE and Workbench to workers that can draw', () => {
    const eevee = { blender: '4.3.2', engine: 'BLENDER_EEVEE_NEXT' };
    expect(routeChunk({ ...base, chunk: eevee, self: w('a', '4.3.2', false), others: [w('b', '4.3.2', true)] })).toBe('hand-over');
    expect(routeChunk({ ...base, chunk: eevee, self: w('b', '4.3.2', true), others: [] })).toBe('render');
    expect(routeChunk({ ...base, chunk: eevee, self: w('c', '4.3.2', null), others: [] })).toBe('render');
    expect(routeChunk({ ...base, chunk: { blender: '4.3.2', engine: 'BLENDER_WORKBENCH' }, self: w('a', '4.3.2', false), others: [] })).toBe('hand-over');
    expect(routeChunk({ ...base, chunk: cycles('4.3.2'), self: w('a', '4.3.2', false), others: [] })).toBe('render');
  });

  it('does not count itself, under the same name, as another worker', () => {
    expect(routeChunk({ failures: { a: 2 }, maxFailures: 2, chunk: cycles('4.2.0'), self: w('a', '4.2.0'), others: [w('a', '4.2.0')] })).toBe('render');
  });

  it('hands over a job it failed repeatedly while another worker of the version can take it', () => {
    const failures = { a: 2, b: 1 };
    const chunk = cycles('4.2.0');
    expect(routeChunk({ failures, maxFailures: 2, chunk, self: w('a', '4.2.0'), others: [w('b', '4.2.0')] })).toBe('hand-over');
    expect(routeChunk({ failures, maxFailures: 2, chunk, self: w('b', '4.2.0'), others: [w('a', '4.2.0')] })).toBe('render');
    expect(routeChunk({ failures: { a: 2, b: 2 }, maxFailures: 2, chunk, self: w('a', '4.2.0'), others: [w('b', '4.2.0')] })).toBe('render');
    expect(routeChunk({ failures, maxFailures: 2, chunk, self: w('a', '4.2.0'), others: [] })).toBe('render');
    expect(routeChunk({ failures, maxFailures: 2, chunk, self: w('a', '4.2.0'), others: [w('b', '4.3.2')] })).toBe('render');
  });
});

describe('why a render waits', () => {
  const worker = (name: string, blenderVersion: string, more: { eevee?: boolean; state?: 'idle' | 'disk-full' } = {}) => ({
    id: name,
    name,
    host: 'box',
    blenderVersion,
    devices: ['CPU'],
    threads: null,
    state: more.state ?? ('idle' as const),
    current: null,
    startedAt: '',
    lastSeenAt: '',
    framesRendered: 0,
    eevee: more.eevee ?? null,
  });
  const render = { blender: '3.4.1', saved: '3.4', engine: 'CYCLES', queued: { waiting: 2, active: 0 } };

  it('names the Blender version the render waits for', () => {
    expect(waitingNote(render, [worker('w43', '4.3.2')], false)).toBe('Waiting: no render worker with Blender 3.4.1 is connected');
    expect(waitingNote({ ...render, blender: null, saved: '5.2' }, [worker('w34', '3.4.1')], false)).toBe('Waiting: no render worker has Blender 5.2 or newer');
    expect(waitingNote({ ...render, engine: 'BLENDER_EEVEE' }, [worker('w34', '3.4.1', { eevee: false })], false)).toBe(
      'Waiting: no render worker with Blender 3.4.1 that can render EEVEE is connected',
    );
  });

  it('says nothing while a worker of its version takes its chunks, and the usual reasons otherwise', () => {
    expect(waitingNote(render, [worker('w34', '3.4.1')], false)).toBeNull();
    expect(waitingNote({ ...render, queued: { waiting: 0, active: 1 } }, [], false)).toBeNull();
    expect(waitingNote(render, [], false)).toBe(WAITING_NOTES.noWorkers);
    expect(waitingNote(render, [worker('w34', '3.4.1')], true)).toBe(WAITING_NOTES.paused);
    expect(waitingNote(render, [worker('w34', '3.4.1', { state: 'disk-full' }), worker('w43', '4.3.2')], false)).toBe(WAITING_NOTES.disksFull);
  });
});
