import type { CallName, CallRequest, CallResponse } from './calls';
import type { AppEvent } from './events';
import type { Result } from './result';

/**
 * What a transport gives the renderer: a preload exposes exactly this as `window.renderdrop`, and
 * browser mode implements it over HTTP and server-sent events.
 */
export interface RenderdropBridge {
  call<K extends CallName>(name: K, request: CallRequest<K>): Promise<Result<CallResponse<K>>>;
  /** Receives every event; returns the function that stops it. */
  subscribe(listener: (event: AppEvent) => void): () => void;
  /**
   * Browser mode only: streams a dropped file to the host and answers the token `submissions.submit`
   * takes. The desktop app submits paths instead.
   */
  uploadFile?(file: Blob, name: string, onProgress?: (sent: number, total: number) => void): Promise<Result<{ token: string }>>;
  /** Desktop only: the path of a dropped file. */
  pathForFile?(file: File): string | null;
}

/** IPC channel of a call (`renderdrop:call:<name>`) and of the event stream. */
export function callChannel(name: CallName): string {
  return `renderdrop:call:${name}`;
}

/** IPC channel every event is sent on. */
export const EVENT_CHANNEL = 'renderdrop:event';
