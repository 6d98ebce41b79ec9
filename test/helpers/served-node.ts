import { runCli } from './cli';

/** Calls the API of a node started with `startServeProcess`: method, path under /api/external/v1, JSON body. */
export type ServedApi = (url: string, method: string, path: string, body?: unknown) => Promise<any>;

/** Create a key in a node's data folder with the CLI and return the API caller that uses it. */
export async function servedApi(dataDir: string, name: string): Promise<{ key: string; api: ServedApi }> {
  const created = await runCli(['node', 'keys', 'create', '--data', dataDir, '--name', name]);
  if (created.code !== 0) throw new Error(`node keys create failed: ${created.stderr}`);
  const key = created.stdout.trim().split('\n').pop()!;
  const api: ServedApi = (url, method, path, body) =>
    fetch(`${url}/api/external/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }).then((r) => r.json());
  return { key, api };
}

/** Call `fn` every 100 ms until `ok` holds for its value; throws with the last value after `timeoutMs`. */
export async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 120_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
