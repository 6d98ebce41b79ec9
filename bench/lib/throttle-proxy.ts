import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A proxy in front of a node whose request bodies travel at most `bytesPerSecond` (a slow uplink). */
export interface ThrottledLink {
  url: string;
  close: () => Promise<void>;
}

/** Lets bytes through no faster than `bytesPerSecond`, counted from its first byte. */
function paced(bytesPerSecond: number): Transform {
  let start = 0;
  let passed = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      start ||= Date.now();
      passed += chunk.length;
      const wait = start + (passed / bytesPerSecond) * 1000 - Date.now();
      if (wait > 0) setTimeout(() => done(null, chunk), wait);
      else done(null, chunk);
    },
  });
}

/**
 * Starts a proxy on 127.0.0.1 that forwards everything to `target`, request bodies paced (uploads;
 * answers travel at full speed). The Host header goes through as the client sent it, so the URLs the
 * node hands out (presigned and chunk URLs) point at the proxy too.
 */
export async function startThrottledLink(target: string, bytesPerSecond: number): Promise<ThrottledLink> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      void pipeline(answer, res).catch(() => undefined);
    });
    forward.on('error', () => res.destroy());
    void pipeline(req, paced(bytesPerSecond), forward).catch(() => undefined);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((closed) => server.close(() => closed())) };
}
