import type { SerializedError } from '../client-error';
import { CALLS, isCallName, type CallName, type CallPayload, type CallResponse } from './calls';
import type { Result } from './result';

/** The host side of the contract: one function per call, receiving the checked payload. */
export type ContractHandlers = { [K in CallName]: (payload: CallPayload<K>) => Promise<CallResponse<K>> };

/**
 * Runs one call for a transport: checks the name and the payload with the call's schema, runs the
 * handler, and turns whatever it throws into a serialisable error with `toError`. Never throws.
 * IPC (`ipcMain.handle`) and HTTP register every call through this one function.
 */
export async function dispatchCall(
  handlers: ContractHandlers,
  name: string,
  payload: unknown,
  toError: (error: unknown) => SerializedError,
): Promise<Result<unknown>> {
  if (!isCallName(name)) {
    return { ok: false, error: { kind: 'contract', code: 'unknown-call', message: `There is no call named "${name}".` } };
  }
  const parsed = CALLS[name].request.safeParse(payload ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return {
      ok: false,
      error: { kind: 'contract', code: 'invalid-request', message: `${where}${issue?.message ?? 'invalid request'}` },
    };
  }
  try {
    const handler = handlers[name] as (payload: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(parsed.data) };
  } catch (error) {
    return { ok: false, error: toError(error) };
  }
}
