import { networkInterfaces } from 'node:os';

/**
 * The address render workers reach the node at: `publicUrl` when given; else the bound address, or
 * for a wildcard bind (0.0.0.0, ::) this machine's first LAN IPv4 address.
 */
export function workerFacingUrl(input: { publicUrl?: string; host: string; port: number; interfaces?: ReturnType<typeof networkInterfaces> }): string {
  if (input.publicUrl) return input.publicUrl.replace(/\/+$/, '');
  let host = input.host;
  if (host === '0.0.0.0' || host === '::') {
    const all = Object.values(input.interfaces ?? networkInterfaces()).flat();
    host = all.find((a) => a && a.family === 'IPv4' && !a.internal)?.address ?? '127.0.0.1';
  }
  return `http://${host.includes(':') ? `[${host}]` : host}:${input.port}`;
}
