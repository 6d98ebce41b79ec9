import { describe, expect, it } from 'vitest';
import { jobClickAction, NotificationPolicy, type NativeNote } from '../../../src/main/notifications/notification-policy';

function setup(focused = false) {
  const shown: NativeNote[] = [];
  const timers: { run: () => void; ms: number; cancelled: boolean }[] = [];
  let isFocused = focused;
  const policy = new NotificationPolicy({
    isFocused: () => isFocused,
    show: (note) => shown.push(note),
    schedule: (run, ms) => {
      const timer = { run, ms, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
  });
  const fire = () => timers.filter((t) => !t.cancelled).forEach((t) => t.run());
  return { policy, shown, timers, fire, focus: (on: boolean) => (isFocused = on) };
}

describe('notification policy', () => {
  it('shows nothing while the window has focus (the in-app notification suffices)', () => {
    const { policy, shown, timers } = setup(true);
    policy.completed({ jobId: 'a', fileName: 'a.blend', frames: 3 });
    policy.failed({ jobId: 'b', fileName: 'b.blend', reason: 'Out of memory' });
    expect(shown).toEqual([]);
    expect(timers).toEqual([]);
  });

  it('shows a failure at once, with its reason, opening the job', () => {
    const { policy, shown } = setup();
    policy.failed({ jobId: 'b', fileName: 'b.blend', reason: 'Blender crashed while rendering frame 12.' });
    expect(shown).toEqual([{ title: 'Render failed', body: 'b.blend: Blender crashed while rendering frame 12.', target: { kind: 'job', jobId: 'b' }, urgent: true }]);
  });

  it('names the step a job failed at', () => {
    const { policy, shown } = setup();
    policy.failed({ jobId: 'c', fileName: 'c.blend', reason: 'Blender could not read c.blend.', step: 'validation' });
    expect(shown.map((n) => n.title)).toEqual(['Validation failed']);
  });

  it('shows one completion with the scene and frames after the digest window', () => {
    const { policy, shown, timers, fire } = setup();
    policy.completed({ jobId: 'a', fileName: 'shot.blend', frames: 1 });
    expect(shown).toEqual([]);
    expect(timers[0]!.ms).toBe(4000);
    fire();
    expect(shown).toEqual([{ title: 'Render complete', body: 'shot.blend: 1 frame rendered.', target: { kind: 'job', jobId: 'a' }, urgent: false }]);
  });

  it('turns completions close together into one summary', () => {
    const { policy, shown, timers, fire } = setup();
    policy.completed({ jobId: 'a', fileName: 'a.blend', frames: 10 });
    policy.completed({ jobId: 'b', fileName: 'b.blend', frames: 20 });
    policy.completed({ jobId: 'c', fileName: 'c.blend', frames: 30 });
    expect(timers).toHaveLength(1);
    fire();
    expect(shown).toEqual([{ title: '3 renders complete', body: 'a.blend, b.blend and c.blend: 60 frames in all.', target: { kind: 'window' }, urgent: false }]);
    policy.completed({ jobId: 'd', fileName: 'd.blend', frames: 2 });
    expect(timers).toHaveLength(2);
  });

  it('names the first two of many', () => {
    const { policy, shown, fire } = setup();
    for (const name of ['a', 'b', 'c', 'd', 'e']) policy.completed({ jobId: name, fileName: `${name}.blend`, frames: 1 });
    fire();
    expect(shown[0]!.body).toBe('a.blend, b.blend and 3 more: 5 frames in all.');
  });

  it('a failure does not wait for the digest of completions', () => {
    const { policy, shown } = setup();
    policy.completed({ jobId: 'a', fileName: 'a.blend', frames: 1 });
    policy.failed({ jobId: 'b', fileName: 'b.blend', reason: 'no camera' });
    expect(shown.map((n) => n.title)).toEqual(['Render failed']);
  });

  it('drops the digest when the window gained focus meanwhile, or the app quits', () => {
    const { policy, shown, fire, focus, timers } = setup();
    policy.completed({ jobId: 'a', fileName: 'a.blend', frames: 1 });
    focus(true);
    fire();
    expect(shown).toEqual([]);
    focus(false);
    policy.completed({ jobId: 'b', fileName: 'b.blend', frames: 1 });
    policy.dispose();
    expect(timers.at(-1)!.cancelled).toBe(true);
  });

  it('a click opens the downloaded folder, else the job', () => {
    const done = { download: { state: 'done', dir: '/r/shot-1234' } };
    expect(jobClickAction('j', done)).toEqual({ kind: 'folder', dir: '/r/shot-1234' });
    expect(jobClickAction('j', { download: { state: 'downloading', dir: '/r/x' } })).toEqual({ kind: 'job', jobId: 'j' });
    expect(jobClickAction('j', undefined)).toEqual({ kind: 'job', jobId: 'j' });
  });
});

