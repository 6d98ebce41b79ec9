import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline, Transform, type TransformCallback } from 'node:stream';

/** A rate limit in bytes per second, or null for none. */
type Rate = number | null;

/** An HTTP proxy in front of a render node that can slow down upload bodies and storage downloads. */
export interface ThrottleProxy {
  /** Base URL to use instead of the node's; links the node hands out point back here. */
  url: string;
  /** Limits PUT bodies (uploads) from now on, also for transfers already running. */
  setUploadRate(rate: Rate): void;
  /** Limits GET bodies of `/storage/` (downloads) from now on. */
  setDownloadRate(rate: Rate): void;
  /** Upload body bytes passed on to the node so far. */
  uploadedBytes(): number;
  /** Download body bytes passed on to clients so far. */
  downloadedBytes(): number;
  /** Every request seen: method, path and Range header. */
  requests(): { method: string; path: string; range: string | null }[];
  close(): Promise<void>;
}

/**
 * Starts a proxy to `target` (e.g. `http://127.0.0.1:1234`). Requests keep their Host header, so the
 * node builds its upload and download links on the proxy's address and those transfers pass through it.
 */
export async function startThrottleProxy(target: string): Promise<ThrottleProxy> {
  const upstream = new URL(target);
  const state = { upload: null as Rate, download: null as Rate, uploaded: 0, downloaded: 0 };
  const seen: { method: string; path: string; range: string | null }[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const range = req.headers.range;
    seen.push({ method: req.method ?? '', path: (req.url ?? '').split('?')[0]!, range: typeof range === 'string' ? range : null });
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      const isDownload = req.method === 'GET' && (req.url ?? '').startsWith('/storage/');
      pipeline(answer, throttle(() => (isDownload ? state.download : null), (n) => isDownload && (state.downloaded += n)), res, () => undefined);
    });
    forward.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) forward.destroy();
    });
    pipeline(req, throttle(() => (req.method === 'PUT' ? state.upload : null), (n) => req.method === 'PUT' && (state.uploaded += n)), forward, () => undefined);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setUploadRate: (rate) => void (state.upload = rate),
    setDownloadRate: (rate) => void (state.download = rate),
    uploadedBytes: () => state.uploaded,
    downloadedBytes: () => state.downloaded,
    requests: () => [...seen],
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}

/** Passes bytes on in slices of a tenth of the rate, one slice per 100 ms, while a rate is set. */
function throttle(rate: () => Rate, counted: (bytes: number) => unknown): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      const push = async () => {
        let rest = chunk;
        while (rest.length > 0 && !this.destroyed) {
          const limit = rate();
          if (limit === null) {
            counted(rest.length);
            this.push(rest);
            break;
          }
          const slice = rest.subarray(0, Math.max(1, Math.floor(limit / 10)));
          rest = rest.subarray(slice.length);
          counted(slice.length);
          this.push(slice);
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      push().then(() => callback(), callback);
    },
  });
}
