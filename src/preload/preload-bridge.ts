import type { IpcRenderer, WebUtils } from 'electron';
import { callChannel, EVENT_CHANNEL, type RenderdropBridge } from '../shared/contract/bridge';
import type { CallName } from '../shared/contract/calls';
import type { AppEvent } from '../shared/contract/events';
import type { Result } from '../shared/contract/result';

/** A call name's shape (`area.action`); main checks it against the contract. */
const CALL_NAME = /^[a-z]+\.[A-Za-z]+$/;

/**
 * The desktop transport the preload exposes as `window.renderdrop`: exactly `call`, `subscribe` and
 * `pathForFile`. Calls go to the contract's own IPC channels and always answer a Result; listeners
 * receive the event alone, never Electron's IPC event (which would hand the page `ipcRenderer`);
 * a dropped file's path comes from `webUtils`, so no file bytes cross IPC.
 */
export function createPreloadBridge(ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>, webUtils: Pick<WebUtils, 'getPathForFile'>): Required<Pick<RenderdropBridge, 'call' | 'subscribe' | 'pathForFile'>> {
  return {
    async call(name, request) {
      if (typeof name !== 'string' || !CALL_NAME.test(name)) {
        return { ok: false, error: { kind: 'contract', code: 'unknown-call', message: `There is no call named "${String(name)}".` } };
      }
      try {
        return (await ipc.invoke(callChannel(name as CallName), request ?? {})) as Result<never>;
      } catch (error) {
        return { ok: false, error: { kind: 'contract', message: `Renderdrop's back end did not answer (${error instanceof Error ? error.message : String(error)}).` } };
      }
    },
    subscribe(listener) {
      const relay = (_event: unknown, appEvent: AppEvent) => listener(appEvent);
      ipc.on(EVENT_CHANNEL, relay);
      return () => {
        ipc.removeListener(EVENT_CHANNEL, relay);
      };
    },
    pathForFile(file) {
      try {
        return webUtils.getPathForFile(file) || null;
      } catch {
        return null;
      }
    },
  };
}
