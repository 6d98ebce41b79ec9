import { networkInterfaces } from 'node:os';

/**
 * The address render workers can reach the node at, shown when it starts so it can be given to them
 * (`--node`): `publicUrl` when given; else the bound address, or for a wildcard bind (0.0.0.0, ::)
 * this machine's first LAN IPv4 address.
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

/** Check the node address a worker is given: an http:// or https:// URL with a host and nothing after its path. */
export function checkNodeUrl(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `"${url}" is not a URL; use the node's address, e.g. http://10.0.0.5:8787.`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `The node's address must start with http:// or https://, not ${u.protocol}//.`;
  if (!u.hostname) return "The node's address has no host; use e.g. http://10.0.0.5:8787.";
  if (u.search || u.hash || u.username || u.password) return "The node's address must be plain: no query, fragment or user name.";
  return null;
}
