import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import type { SerializedError } from '../../shared/client-error';
import { CALL_NAMES, callChannel, dispatchCall, type ContractHandlers, type Result } from '../../shared/contract';

/** How calls are checked before the host sees them. */
export interface RegisterContractOptions {
  /** Whether the call comes from the app's own window and page. */
  isTrustedSender(event: IpcMainInvokeEvent): boolean;
  /** Turns what a handler throws into a serialisable error. */
  toError(error: unknown): SerializedError;
}

const FOREIGN_SENDER: Result<never> = {
  ok: false,
  error: { kind: 'contract', code: 'forbidden-sender', message: 'Renderdrop only answers its own window.' },
};

/**
 * Registers every call of the contract on IPC (`renderdrop:call:<name>`), the only place main does.
 * Each call is refused unless it comes from the app's window and page, then checked with the call's
 * schema and run by `dispatchCall`; the answer is always a Result value, never a thrown error.
 * Returns the function that removes every handler.
 */
export function registerContract(ipc: Pick<IpcMain, 'handle' | 'removeHandler'>, handlers: ContractHandlers, options: RegisterContractOptions): () => void {
  for (const name of CALL_NAMES) {
    ipc.handle(callChannel(name), async (event, payload: unknown): Promise<Result<unknown>> => {
      if (!options.isTrustedSender(event)) return FOREIGN_SENDER;
      return dispatchCall(handlers, name, payload, options.toError);
    });
  }
  return () => {
    for (const name of CALL_NAMES) ipc.removeHandler(callChannel(name));
  };
}
