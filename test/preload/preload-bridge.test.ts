import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { IpcRenderer, WebUtils } from 'electron';
import { createPreloadBridge } from '../../src/preload/preload-bridge';
import { EVENT_CHANNEL } from '../../src/shared/contract/bridge';

vi.mock('electron', () => ({}));

function fakeIpc() {
  const emitter = new EventEmitter();
  const ipc = {
    invoke: vi.fn(async (channel: string, payload: unknown) => ({ ok: true, value: { channel, payload } })),
    on: vi.fn((channel: string, listener: (...args: unknown[]) => void) => emitter.on(channel, listener)),
    removeListener: vi.fn((channel: string, listener: (...args: unknown[]) => void) => emitter.removeListener(channel, listener)),
  };
  return { ipc, emitter };
}

describe('the preload bridge', () => {
  it('sends a call on its contract channel and answers the result', async () => {
    const { ipc } = fakeIpc();
    const bridge = createPreloadBridge(ipc as unknown as IpcRenderer, { getPathForFile: () => '' });
    expect(await bridge.call('jobs.get', { jobId: 'j1' })).toEqual({ ok: true, value: { channel: 'renderdrop:call:jobs.get', payload: { jobId: 'j1' } } });
    await bridge.call('app.getState', undefined as never);
    expect(ipc.invoke).toHaveBeenLastCalledWith('renderdrop:call:app.getState', {});
  });

  it('refuses names that are not call names, without touching IPC', async () => {
    const { ipc } = fakeIpc();
    const bridge = createPreloadBridge(ipc as unknown as IpcRenderer, { getPathForFile: () => '' });
    for (const name of ['../x', 'renderdrop:event', 'app.getState\n', '', 42]) {
      expect(await bridge.call(name as never, {} as never)).toMatchObject({ ok: false, error: { kind: 'contract', code: 'unknown-call' } });
    }
    expect(ipc.invoke).not.toHaveBeenCalled();
  });

  it('turns an IPC failure into an error value', async () => {
    const { ipc } = fakeIpc();
    ipc.invoke.mockRejectedValueOnce(new Error("No handler registered for 'renderdrop:call:nope.nope'"));
    const bridge = createPreloadBridge(ipc as unknown as IpcRenderer, { getPathForFile: () => '' });
    expect(await bridge.call('nope.nope' as never, {} as never)).toMatchObject({ ok: false, error: { kind: 'contract', message: expect.stringContaining('No handler registered') } });
  });

  it('hands listeners the event only (never the IPC event), and unsubscribes', () => {
    const { ipc, emitter } = fakeIpc();
    const bridge = createPreloadBridge(ipc as unknown as IpcRenderer, { getPathForFile: () => '' });
    const listener = vi.fn();
    const stop = bridge.subscribe(listener);
    const appEvent = { name: 'jobs.reset', payload: { profileId: null } };
    emitter.emit(EVENT_CHANNEL, { sender: ipc, ports: [] }, appEvent);
    expect(listener).toHaveBeenCalledWith(appEvent);
    expect(listener.mock.calls[0]).toHaveLength(1);
    stop();
    emitter.emit(EVENT_CHANNEL, {}, appEvent);
    expect(listener).toHaveBeenCalledOnce();
    expect(emitter.listenerCount(EVENT_CHANNEL)).toBe(0);
  });

  it("gives a dropped file's path through webUtils, or null when it has none", () => {
    const { ipc } = fakeIpc();
    const getPathForFile = vi.fn((file: File) => (file.name === 'shot.blend' ? '/home/ana/shot.blend' : ''));
    const bridge = createPreloadBridge(ipc as unknown as IpcRenderer, { getPathForFile } as unknown as WebUtils);
    expect(bridge.pathForFile(new File(['x'], 'shot.blend'))).toBe('/home/ana/shot.blend');
    expect(bridge.pathForFile(new File(['x'], 'made-in-page.blend'))).toBeNull();
    getPathForFile.mockImplementationOnce(() => {
      throw new TypeError('not a File');
    });
    expect(bridge.pathForFile({} as File)).toBeNull();
    expect(ipc.invoke).not.toHaveBeenCalled();
  });
});
