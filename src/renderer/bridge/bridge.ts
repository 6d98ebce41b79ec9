import type { RenderdropBridge, CallName, CallRequest, CallResponse, AppEvent, Result } from '../../shared/contract';
import { httpTransport } from './http-transport';

declare global {
  interface Window {
    /** Set by the desktop app's preload; absent in browser mode. */
    renderdrop?: RenderdropBridge;
  }
}

let transport: RenderdropBridge | null = null;

/** The transport in use: the preload's (desktop) when present, else HTTP and SSE (browser mode). */
function current(): RenderdropBridge {
  transport ??= typeof window !== 'undefined' && window.renderdrop ? window.renderdrop : httpTransport();
  return transport;
}

/** Replaces the transport (tests and benchmarks). */
export function useTransport(next: RenderdropBridge): void {
  transport = next;
}

/**
 * How scene files are picked: the system's own dialog where the transport can tell a picked file's
 * path (the desktop app), else Renderdrop's file browser, which lists this computer's folders through
 * the back end (browser mode).
 */
export function filePicker(): 'native' | 'browser' {
  return current().pathForFile ? 'native' : 'browser';
}

/** The path of a dropped file or folder where the transport can tell it (the desktop app), else null. */
export function pathForFile(file: File): string | null {
  return current().pathForFile?.(file) ?? null;
}

/** Calls the back end; never throws (errors come back as values). */
export function call<K extends CallName>(name: K, request: CallRequest<K>): Promise<Result<CallResponse<K>>> {
  return current().call(name, request);
}

/** Receives every event of the back end. */
export function subscribe(listener: (event: AppEvent) => void): () => void {
  return current().subscribe(listener);
}

/**
 * Turns a dropped file into something `submissions.submit` takes: its path in the desktop app, or
 * (browser mode) the token of the copy streamed to the host.
 */
export async function prepareFile(
  file: File,
  onProgress?: (sent: number, total: number) => void,
): Promise<Result<{ path: string } | { token: string }>> {
  const t = current();
  const path = t.pathForFile?.(file) ?? null;
  if (path) return { ok: true, value: { path } };
  if (!t.uploadFile) return { ok: false, error: { kind: 'config', message: 'This window cannot read dropped files.' } };
  const uploaded = await t.uploadFile(file, file.name, onProgress);
  return uploaded.ok ? { ok: true, value: { token: uploaded.value.token } } : uploaded;
}
