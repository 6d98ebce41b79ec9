import type { CallName, CallRequest, CallResponse } from '../../shared/contract';
import { call } from '../bridge';
import { useNotificationsStore } from '../stores';

/** How a failed command reaches the artist. */
export interface CommandOptions {
  /** What the artist asked for, in their words ("cancel the job"): the title says it could not be done. */
  what: string;
  /** Shows the failure where the action was taken (a form's message) instead of as a notification. */
  show?: (message: string) => void;
}

/**
 * Runs a call the artist asked for and makes sure a failure reaches them: shown in place with `show`,
 * else as an in-app notification ("Could not cancel the job" and the back end's reason). Resolves with
 * the value, or null after a failure.
 */
export async function command<K extends CallName>(name: K, request: CallRequest<K>, options: CommandOptions): Promise<CallResponse<K> | null> {
  const result = await call(name, request);
  if (result.ok) return result.value;
  const message = result.error.message;
  if (options.show) options.show(message);
  else {
    const at = new Date();
    useNotificationsStore.getState().push({ id: `${name}-${at.getTime()}`, level: 'error', title: `Could not ${options.what}`, message, jobId: null, at: at.toISOString() });
  }
  return null;
}
