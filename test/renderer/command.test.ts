import { beforeEach, describe, expect, it } from 'vitest';
import { useTransport } from '../../src/renderer/bridge/bridge';
import { command } from '../../src/renderer/lib/command';
import { useNotificationsStore } from '../../src/renderer/stores/notifications-store';
import type { RenderdropBridge } from '../../src/shared/contract/bridge';

const refusing: RenderdropBridge = {
  async call() {
    return { ok: false, error: { kind: 'invalid-state', message: 'The job has already completed.' } };
  },
  subscribe: () => () => undefined,
};

beforeEach(() => {
  useNotificationsStore.setState({ items: [] });
});

describe('command', () => {
  it('tells the artist what could not be done and why, as a notification', async () => {
    useTransport(refusing);
    expect(await command('jobs.cancel', { jobId: 'j-1' }, { what: 'cancel the job' })).toBeNull();
    expect(useNotificationsStore.getState().items).toMatchObject([{ level: 'error', title: 'Could not cancel the job', message: 'The job has already completed.' }]);
  });

  it('shows the failure in place instead when the action has a place for it', async () => {
    useTransport(refusing);
    const shown: string[] = [];
    expect(await command('profiles.setKey', { profileId: 'p', apiKey: 'RJ-0123456789' }, { what: 'save the key', show: (m) => shown.push(m) })).toBeNull();
    expect(shown).toEqual(['The job has already completed.']);
    expect(useNotificationsStore.getState().items).toEqual([]);
  });

  it('answers the value when the call succeeds, and says nothing', async () => {
    useTransport({ call: async () => ({ ok: true, value: '/frames/shot-1234abcd' as never }), subscribe: () => () => undefined });
    expect(await command('jobs.openFolder', { jobId: 'j-1' }, { what: 'open the folder' })).toBe('/frames/shot-1234abcd');
    expect(useNotificationsStore.getState().items).toEqual([]);
  });
});
