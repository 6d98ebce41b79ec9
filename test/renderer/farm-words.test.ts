import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { WorkerInfo } from '../../src/shared/api/workers';
import { blocksOf, blockText, jobName, workerStateText } from '../../src/renderer/lib/farm/worker-words';
import { priorityError, tagsError, typedTags } from '../../src/renderer/lib/farm/studio-fields';
import { configFromForm, formFromConfig, reviewErrors } from '../../src/renderer/lib/review-form';
import { StudioFields } from '../../src/renderer/components/review/studio-fields';
import { formatWhen } from '../../src/renderer/lib/job-times';
import { QueueRow, type RowPlacement } from '../../src/renderer/components/queue/queue-row';
import { jobSummary } from '../fixtures/job-summary';

const now = Date.parse('2026-03-14T10:50:00Z');
const JOB = 'abcdef12-0000-4000-8000-000000000000';
const worker = (over: Partial<WorkerInfo>): WorkerInfo => ({
  id: 'w',
  name: 'ws-1',
  host: 'box1',
  blenderVersion: '4.3.2',
  devices: ['CPU'],
  threads: null,
  state: 'idle',
  current: null,
  startedAt: '2026-03-14T09:00:00Z',
  lastSeenAt: '2026-03-14T10:42:00Z',
  framesRendered: 0,
  ...over,
});

describe('the Workers view in words', () => {
  it('says what each worker does: idle, rendering a named job, disk full, offline since', () => {
    expect(workerStateText(worker({}), {}, now)).toBe('Idle');
    expect(workerStateText(worker({ state: 'rendering', current: { jobId: JOB, frames: [5, 6, 7, 8], frame: 6 } }), { [JOB]: 'shot_010.blend' }, now)).toBe('Rendering “shot_010.blend” frames 5-8 (on 6)');
    expect(workerStateText(worker({ state: 'rendering', current: { jobId: JOB, frames: [1, 2], frame: null } }), {}, now)).toBe('Rendering job abcdef12 frames 1-2');
    expect(workerStateText(worker({ state: 'disk-full', reason: 'Disk full: 2 MB free.' }), {}, now)).toBe('Disk full');
    expect(workerStateText(worker({ state: 'offline' }), {}, now)).toBe(`Offline since ${formatWhen('2026-03-14T10:42:00Z', now)}`);
  });

  it('names blocks and finds those of one worker', () => {
    const blocks = [
      { worker: 'ws-2', jobId: JOB, by: 'failures' as const, since: '2026-03-14T10:00:00Z' },
      { worker: 'ws-2', jobId: null, by: 'hand' as const, since: '2026-03-14T10:00:00Z' },
    ];
    expect(blockText(blocks[0]!, { [JOB]: 'shot_010.blend' })).toBe('ws-2 is kept from “shot_010.blend” after failing its frames');
    expect(blockText(blocks[1]!, {})).toBe('ws-2 is kept from every job');
    expect(blocksOf('ws-2', blocks)).toEqual({ everyJob: blocks[1], jobs: [blocks[0]] });
    expect(blocksOf('ws-1', blocks)).toEqual({ everyJob: null, jobs: [] });
    expect(jobName(JOB, {})).toBe('job abcdef12');
  });
});

describe('priority and worker tags as typed', () => {
  it('checks a priority from 0 to 100, empty meaning the default', () => {
    expect(priorityError('')).toBeNull();
    expect(priorityError('75')).toBeNull();
    expect(priorityError('101')).toMatch(/whole number from 0 \(lowest\) to 100 \(highest\)/);
    expect(priorityError('high')).not.toBeNull();
  });

  it('reads tags people type and says in words what is not a tag', () => {
    expect(typedTags('Big-RAM, gpu gpu')).toEqual(['big-ram', 'gpu']);
    expect(tagsError('big ram!')).toMatch(/^"ram!" is not a tag: a tag is 1 to 32 lowercase letters/);
    expect(tagsError('')).toBeNull();
  });

  it('sends the review form\'s priority and tags, and nothing when they are left empty', () => {
    const base = { colorManagementPreset: 'default' as const };
    const form = formFromConfig({ ...base, priority: 75, requires: ['big-ram'] });
    expect(form).toMatchObject({ priority: '75', requires: 'big-ram' });
    expect(configFromForm({ ...form, requires: 'big-ram, GPU' }, base)).toEqual({ ...base, priority: 75, requires: ['big-ram', 'gpu'] });
    expect(configFromForm({ ...form, priority: '', requires: '' }, { ...base, priority: 75, requires: ['x'] })).toEqual(base);
    expect(reviewErrors({ ...form, priority: '200', requires: 'a b!' }, null)).toMatchObject({ priority: expect.any(String), requires: expect.stringMatching(/is not a tag/) });
  });
});

describe('the frame order of the review', () => {
  it('shows across the shot first unless the settings say in order, and sends only in order (across the shot is the node\'s default)', () => {
    const base = { colorManagementPreset: 'default' as const };
    expect(formFromConfig(base).frameOrder).toBe('spread');
    const inOrder = formFromConfig({ ...base, frameOrder: 'sequential' });
    expect(inOrder.frameOrder).toBe('sequential');
    expect(configFromForm(inOrder, base)).toEqual({ ...base, frameOrder: 'sequential' });
    expect(configFromForm({ ...inOrder, frameOrder: 'spread' }, { ...base, frameOrder: 'sequential' })).toEqual(base);
  });

  it('is offered on a Renderdrop node\'s review, worded for artists', () => {
    const form = formFromConfig({ colorManagementPreset: 'default' });
    const html = renderToStaticMarkup(createElement(StudioFields, { studio: { workerTags: [], renders: 'node' }, form, set: () => {}, errors: {} }));
    expect(html).toContain('>Frame order</label>');
    expect(html).toContain('<option value="spread" selected="">Across the shot first</option>');
    expect(html).toContain('<option value="sequential">In order</option>');
    expect(html).toContain('you see the whole shot early');
  });
});

describe('a waiting row', () => {
  const place: RowPlacement = { index: 0, tabbable: true, style: {}, measure: () => undefined };
  const row = (over: Parameters<typeof jobSummary>[0]) => renderToStaticMarkup(createElement(QueueRow, { job: jobSummary(over), submission: null, selected: false, checked: false, now, place }));

  it('says when it starts, or why it cannot say, and drops the words once it renders', () => {
    const starts = row({ id: 'j1', status: 'booting', waiting: { jobsAhead: 1, startsInSeconds: 240, reason: null }, priority: 50 });
    expect(starts).toContain('in ~4 min');
    expect(starts).toContain('Starts in about 4 min — 1 job ahead; the clock starts when it renders.');
    const why = row({ id: 'j2', status: 'booting', waiting: { jobsAhead: 0, startsInSeconds: null, reason: 'Waiting for a render worker tagged big-ram' }, priority: 50 });
    expect(why).toContain('Waiting for a render worker tagged big-ram');
    const rendering = row({ id: 'j3', status: 'rendering', waiting: null, running: true, renderingSince: '2026-03-14T10:49:00Z', priority: 50 });
    expect(rendering).not.toContain('Waiting for a render worker');
  });
});
