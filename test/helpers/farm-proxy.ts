import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream';

/** A proxy in front of a node, as {@link startFarmProxy} makes it. */
export interface FarmProxy {
  url: string;
  /** Every request it passed on: `METHOD /path` (no query). */
  requests: string[];
  close: () => Promise<void>;
}

/**
 * A proxy in front of a real node that passes every request on, except the node's extension routes
 * (`/api/external/v1/node/...`), which get the node's own 404 for a route it does not have: a farm that
 * is not a Renderdrop node, rendering for real. Requests keep their Host header, so the links the node
 * hands out point back through the proxy. With `hideNodeRoutes: false` it passes those on too (only recording).
 */
export async function startFarmProxy(target: string, options: { hideNodeRoutes?: boolean } = {}): Promise<FarmProxy> {
  const hide = options.hideNodeRoutes ?? true;
  const upstream = new URL(target);
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    requests.push(`${req.method} ${path.split('?')[0]}`);
    const forwarded = hide && path.startsWith('/api/external/v1/node/') ? path.replace('/api/external/v1/node/', '/api/external/v1/not-here/') : path;
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: forwarded, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      pipeline(answer, res, () => undefined);
    });
    forward.on('error', () => res.destroy());
    pipeline(req, forward, () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
