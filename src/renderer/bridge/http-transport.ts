import type { RenderdropBridge, CallName, CallRequest, CallResponse, AppEvent, Result } from '../../shared/contract';

/**
 * The contract over HTTP and server-sent events (browser mode): calls are `POST /api/call/<name>`,
 * events arrive on one EventSource at `/api/events`, and dropped files are `PUT /api/upload`. The
 * session cookie goes along on its own (same origin).
 */
export function httpTransport(base = ''): RenderdropBridge {
  const listeners = new Set<(event: AppEvent) => void>();
  let source: EventSource | null = null;

  const connect = () => {
    if (source) return;
    source = new EventSource(`${base}/api/events`);
    source.onmessage = (message) => {
      let event: AppEvent;
      try {
        event = JSON.parse(message.data as string) as AppEvent;
      } catch {
        return;
      }
      for (const listener of [...listeners]) listener(event);
    };
  };

  return {
    async call<K extends CallName>(name: K, request: CallRequest<K>): Promise<Result<CallResponse<K>>> {
      try {
        const response = await fetch(`${base}/api/call/${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
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
          source?.close();
          source = null;
        }
      };
    },
    uploadFile(file, name, onProgress) {
      return new Promise((resolve) => {
        const xhr = new XMLHttpRequest();
        xhr.open('PUT', `${base}/api/upload?name=${encodeURIComponent(name)}`);
        xhr.setRequestHeader('content-type', 'application/octet-stream');
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
