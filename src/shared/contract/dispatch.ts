import type { SerializedError } from '../client-error';
import { CALLS, isCallName, type CallName, type CallPayload, type CallResponse } from './calls';
import type { Result } from './result';
import { settingLabel } from './setting-labels';

/**
 * A refused payload in words: the message, led by the field's human label ("API key: …") unless the
 * message already names it; never a field's name in code.
 */
export function issueMessage(path: readonly PropertyKey[], message: string): string {
  const field = [...path].reverse().find((p): p is string => typeof p === 'string');
  if (!field) return message;
  const label = settingLabel(field);
  return message.toLowerCase().includes(label.toLowerCase()) ? message : `${label}: ${message}`;
}

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
    return { ok: false, error: { kind: 'contract', code: 'invalid-request', message: issueMessage(issue?.path ?? [], issue?.message ?? 'The request is not valid.') } };
  }
  try {
    const handler = handlers[name] as (payload: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(parsed.data) };
  } catch (error) {
    return { ok: false, error: toError(error) };
  }
}
