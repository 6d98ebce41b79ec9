import type { RenderdropBridge, CallName, CallRequest, CallResponse, AppEvent, Result } from '../../shared/contract';
import { PAGE_SECRET_HEADER } from '../../shared/security';
import { readEventStream } from './event-stream-reader';
import { takePageSecret } from './page-secret';

/**
 * The contract over HTTP and server-sent events (browser mode): calls are `POST /api/call/<name>`,
 * events arrive on one fetch-read stream at `/api/events`, and dropped files are `PUT /api/upload`.
 * The session cookie goes along on its own (same origin); every request also carries the page's
 * secret in a header, which the server wants because the cookie reaches every server on 127.0.0.1.
 */
export function httpTransport(base = '', secret: string | null = takePageSecret()): RenderdropBridge {
  const listeners = new Set<(event: AppEvent) => void>();
  const withSecret = (headers: Record<string, string> = {}): Record<string, string> => (secret === null ? headers : { ...headers, [PAGE_SECRET_HEADER]: secret });
  let stop: (() => void) | null = null;

  const connect = () => {
    if (stop) return;
    stop = readEventStream({
      url: `${base}/api/events`,
      headers: () => withSecret(),
      onData: (data) => {
        let event: AppEvent;
        try {
          event = JSON.parse(data) as AppEvent;
        } catch {
          return;
        }
        for (const listener of [...listeners]) listener(event);
      },
    });
  };

  return {
    async call<K extends CallName>(name: K, request: CallRequest<K>): Promise<Result<CallResponse<K>>> {
      try {
        const response = await fetch(`${base}/api/call/${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: withSecret({ 'content-type': 'application/json' }),
          body: JSON.stringify(request ?? {}),
          credentials: 'same-origin',
        });
        return (await response.json()) as Result<CallResponse<K>>;
      } catch (error) {
        return { ok: false, error: { kind: 'network', message: `Renderdrop's back end is not answering (${(error as Error).message}). Is \`renderdrop web\` still running?` } };
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      connect();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          stop?.();
          stop = null;
        }
      };
    },
    uploadFile(file, name, onProgress) {
      return new Promise((resolve) => {
        const xhr = new XMLHttpRequest();
        xhr.open('PUT', `${base}/api/upload?name=${encodeURIComponent(name)}`);
        for (const [header, value] of Object.entries(withSecret({ 'content-type': 'application/octet-stream' }))) xhr.setRequestHeader(header, value);
        xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
        xhr.onload = () => {
          try {
            resolve(JSON.parse(xhr.responseText) as Result<{ token: string }>);
          } catch {
            resolve({ ok: false, error: { kind: 'transfer', message: `The upload of ${name} failed (${xhr.status}).` } });
          }
        };
        xhr.onerror = () => resolve({ ok: false, error: { kind: 'network', message: `The upload of ${name} was interrupted. Drop it again.` } });
        xhr.send(file);
      });
    },
  };
}
