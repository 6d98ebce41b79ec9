import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NotificationView } from '../../../src/shared/contract/submission-views';
import { job } from '../helpers/jobs';

const shown: FakeNotification[] = [];
let supported = true;

class FakeNotification extends EventEmitter {
  static isSupported = () => supported;
  show = vi.fn(() => shown.push(this));
  close = vi.fn();
  constructor(readonly options: { title: string; body: string; urgency: string }) {
    super();
  }
}

vi.mock('electron', () => ({ Notification: FakeNotification }));

const { NativeNotifier, renderOutcome } = await import('../../../src/main/notifications/native-notifications');

function note(level: NotificationView['level'], jobId: string | null, message: string): NotificationView {
  return { id: Math.random().toString(), level, title: level === 'error' ? 'Render failed' : 'Render complete', message, jobId, at: '2026-01-01T00:00:00Z' };
}

describe('native notifications (electron mocked)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    shown.length = 0;
    supported = true;
  });
  afterEach(() => vi.useRealTimers());

  function setup(focused = false) {
    const jobs = new Map([
      ['a', job({ id: 'a', fileName: 'a.blend', status: 'completed', completedFrames: 3, totalFrames: 3 })],
      ['b', job({ id: 'b', fileName: 'b.blend', status: 'completed', completedFrames: 5, totalFrames: 5 })],
      ['f', job({ id: 'f', fileName: 'f.blend', status: 'failed', failure: 'The scene has no camera.' })],
    ]);
    const onClick = vi.fn();
    const notifier = new NativeNotifier({ isFocused: () => focused, job: (id) => jobs.get(id), onClick });
    return { notifier, onClick };
  }

  it('shows a failure at once with the reason from the job, urgent, and reports its click', () => {
    const { notifier, onClick } = setup();
    notifier.handle({ name: 'notification', payload: note('error', 'f', 'f.blend: The scene has no camera.') });
    expect(shown).toHaveLength(1);
    expect(shown[0]!.options).toMatchObject({ title: 'Render failed', body: 'f.blend: The scene has no camera.', urgency: 'critical' });
    shown[0]!.emit('click');
    expect(onClick).toHaveBeenCalledWith({ kind: 'job', jobId: 'f' });
  });

  it('gathers completions a few seconds into one summary', () => {
    const { notifier } = setup();
    notifier.handle({ name: 'notification', payload: note('success', 'a', 'a.blend: 3 frame(s) rendered.') });
    notifier.handle({ name: 'notification', payload: note('success', 'b', 'b.blend: 5 frame(s) rendered.') });
    expect(shown).toHaveLength(0);
    vi.advanceTimersByTime(4000);
    expect(shown).toHaveLength(1);
    expect(shown[0]!.options).toMatchObject({ title: '2 renders complete', body: 'a.blend and b.blend: 8 frames in all.', urgency: 'normal' });
  });

  it('stays quiet while the window is focused, for other events, or where notifications are unsupported', () => {
    const focused = setup(true);
    focused.notifier.handle({ name: 'notification', payload: note('error', 'f', 'f.blend: x') });
    const other = setup();
    other.notifier.handle({ name: 'notification', payload: note('info', 'a', 'hello') });
    other.notifier.handle({ name: 'notification', payload: note('error', null, 'not about a job') });
    other.notifier.handle({ name: 'jobs.reset', payload: { profileId: null } });
    supported = false;
    other.notifier.handle({ name: 'notification', payload: note('error', 'f', 'f.blend: x') });
    vi.runAllTimers();
    expect(shown).toHaveLength(0);
  });

  it('reads a host notification as a render outcome, falling back to its text for unknown jobs', () => {
    expect(renderOutcome(note('success', 'zz', 'z.blend: 4 frames rendered.'), undefined)).toEqual({ completed: { jobId: 'zz', fileName: 'z.blend', frames: 0 } });
    expect(renderOutcome(note('error', 'zz', 'z.blend: Blender crashed.'), undefined)).toEqual({ failed: { jobId: 'zz', fileName: 'z.blend', reason: 'Blender crashed.', step: null } });
  });
});
