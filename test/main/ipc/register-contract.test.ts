import { describe, expect, it, vi } from 'vitest';
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { serializeError } from '../../../src/core/errors';
import { ConfigError } from '../../../src/core/errors';
import { registerContract } from '../../../src/main/ipc/register-contract';
import { isTrustedSender } from '../../../src/main/ipc/sender-check';
import { APP_ORIGIN } from '../../../src/main/window/app-origin';
import { CALL_NAMES, callChannel, type ContractHandlers } from '../../../src/shared/contract';

vi.mock('electron', () => ({ ipcMain: { handle: () => undefined, removeHandler: () => undefined } }));

type Listener = (event: IpcMainInvokeEvent, payload: unknown) => Promise<unknown>;

function fakeIpc() {
  const handlers = new Map<string, Listener>();
  const ipc = {
    handle: vi.fn((channel: string, listener: Listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    }),
    removeHandler: vi.fn((channel: string) => handlers.delete(channel)),
  };
  return { ipc: ipc as unknown as Pick<IpcMain, 'handle' | 'removeHandler'>, handlers };
}

function fakeHandlers(): ContractHandlers {
  return Object.fromEntries(CALL_NAMES.map((name) => [name, vi.fn(async (payload: unknown) => ({ answered: name, payload }))])) as unknown as ContractHandlers;
}

const WINDOW_ID = 7;

function senderEvent(options: { id?: number; url?: string; subframe?: boolean; noFrame?: boolean } = {}): IpcMainInvokeEvent {
  const top = { url: options.url ?? `${APP_ORIGIN}/index.html`, parent: null };
  const frame = options.subframe ? { url: top.url, parent: top } : top;
  return { sender: { id: options.id ?? WINDOW_ID }, senderFrame: options.noFrame ? null : frame } as unknown as IpcMainInvokeEvent;
}

function setup() {
  const { ipc, handlers } = fakeIpc();
  const host = fakeHandlers();
  const dispose = registerContract(ipc, host, { isTrustedSender: (event) => isTrustedSender(event, WINDOW_ID, APP_ORIGIN), toError: serializeError });
  const invoke = (name: string, payload: unknown, event = senderEvent()) => handlers.get(callChannel(name as never))!(event, payload);
  return { handlers, host, dispose, invoke };
}

describe('registering the contract on IPC', () => {
  it('registers every call of the contract once, on its own channel, and nothing else', () => {
    const { handlers } = setup();
    expect([...handlers.keys()].sort()).toEqual(CALL_NAMES.map((n) => `renderdrop:call:${n}`).sort());
  });

  it('passes a valid payload, as the schema parsed it, to the host and answers its value', async () => {
    const { host, invoke } = setup();
    const answer = await invoke('profiles.add', { name: '  Farm  ', baseUrl: 'https://farm.example.com' });
    expect(answer).toEqual({ ok: true, value: { answered: 'profiles.add', payload: { name: 'Farm', baseUrl: 'https://farm.example.com' } } });
    expect(host['profiles.add']).toHaveBeenCalledOnce();
  });

  it('refuses a payload the schema rejects, as a value, without calling the host', async () => {
    const { host, invoke } = setup();
    expect(await invoke('settings.update', { autoDownload: 'yes' })).toMatchObject({ ok: false, error: { kind: 'contract', code: 'invalid-request', message: expect.stringMatching(/^Automatic download:/) } });
    expect(await invoke('jobs.get', { jobId: 'a', extra: 1 })).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    expect(await invoke('submissions.submit', { files: [{ path: '/a.blend', bytes: 'AAAA' }] })).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    expect(host['settings.update']).not.toHaveBeenCalled();
    expect(host['jobs.get']).not.toHaveBeenCalled();
    expect(host['submissions.submit']).not.toHaveBeenCalled();
  });

  it('treats a missing payload as an empty request', async () => {
    const { invoke } = setup();
    expect(await invoke('app.getState', undefined)).toMatchObject({ ok: true });
  });

  it.each([
    ['another web contents', senderEvent({ id: 99 })],
    ['an iframe of the window', senderEvent({ subframe: true })],
    ['a page on another origin', senderEvent({ url: 'https://evil.example/index.html' })],
    ['a file:// page', senderEvent({ url: 'file:///tmp/index.html' })],
    ['a frame that is gone', senderEvent({ noFrame: true })],
  ])('refuses a call from %s without calling the host', async (_what, event) => {
    const { host, invoke } = setup();
    expect(await invoke('app.getState', {}, event)).toEqual({ ok: false, error: { kind: 'contract', code: 'forbidden-sender', message: 'Renderdrop only answers its own window.' } });
    expect(host['app.getState']).not.toHaveBeenCalled();
  });

  it('answers what the host throws as a serialisable error value', async () => {
    const { host, invoke } = setup();
    vi.mocked(host['jobs.cancel']).mockRejectedValueOnce(new ConfigError('No profile is active. Choose one in Settings.', { code: 'no-profile' }));
    const answer = await invoke('jobs.cancel', { jobId: 'j1' });
    expect(answer).toMatchObject({ ok: false, error: { kind: 'config', code: 'no-profile', message: 'No profile is active. Choose one in Settings.' } });
    expect(JSON.parse(JSON.stringify(answer))).toEqual(answer);
  });

  it('removes every handler when disposed', () => {
    const { handlers, dispose } = setup();
    dispose();
    expect(handlers.size).toBe(0);
  });
});

describe('trusted senders', () => {
  it('trusts only the app window, its top frame, on the app origin (or the development server)', () => {
    expect(isTrustedSender(senderEvent(), WINDOW_ID, APP_ORIGIN)).toBe(true);
    expect(isTrustedSender(senderEvent(), null, APP_ORIGIN)).toBe(false);
    expect(isTrustedSender(senderEvent({ url: 'http://localhost:5173/' }), WINDOW_ID, 'http://localhost:5173')).toBe(true);
    expect(isTrustedSender(senderEvent({ url: 'http://localhost:5174/' }), WINDOW_ID, 'http://localhost:5173')).toBe(false);
    expect(isTrustedSender(senderEvent({ url: 'app://renderdrop.evil/index.html' }), WINDOW_ID, APP_ORIGIN)).toBe(false);
  });
});
