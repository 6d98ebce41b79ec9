import { describe, expect, it, vi } from 'vitest';
import { forwardEvents } from '../../../src/main/ipc/forward-events';
import { HostEvents } from '../../../src/host/environment/host-events';
import { EVENT_CHANNEL } from '../../../src/shared/contract/bridge';

vi.mock('electron', () => ({}));

describe('forwarding host events to the window', () => {
  it('sends each event on the event channel while the window lives, and stops when asked', () => {
    const events = new HostEvents();
    const contents = { send: vi.fn(), isDestroyed: vi.fn(() => false) };
    let target: typeof contents | null = contents;
    const stop = forwardEvents((l) => events.subscribe(l), () => target);
    events.emit('jobs.reset', { profileId: 'p' });
    expect(contents.send).toHaveBeenCalledWith(EVENT_CHANNEL, { name: 'jobs.reset', payload: { profileId: 'p' } });
    contents.isDestroyed.mockReturnValue(true);
    events.emit('jobs.reset', { profileId: 'q' });
    target = null;
    events.emit('jobs.reset', { profileId: 'r' });
    stop();
    contents.isDestroyed.mockReturnValue(false);
    target = contents;
    events.emit('jobs.reset', { profileId: 's' });
    expect(contents.send).toHaveBeenCalledOnce();
  });
});
