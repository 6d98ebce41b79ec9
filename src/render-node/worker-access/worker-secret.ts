import { createHmac, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The file in a node's data folder that holds its worker secret (mode 0600). */
export const WORKER_SECRET_FILE = 'worker-secret';

const SECRET_FORM = /^RW-[A-Za-z0-9_-]{43}$/;

/** A worker secret is missing, malformed, or could not be stored. */
export class WorkerSecretError extends Error {
  override readonly name = 'WorkerSecretError';
}

/**
 * The keys a node and its workers derive from their shared worker secret: one signs chunks (node to
 * worker), the other signs each request a worker sends the node (worker to node).
 */
export interface WorkerKeys {
  chunk: Buffer;
  request: Buffer;
}

/** A new worker secret: `RW-` and 32 random bytes in base64url. */
export function newWorkerSecret(): string {
  return `RW-${randomBytes(32).toString('base64url')}`;
}

/** The secret in `text` (surrounding whitespace ignored), or an error naming `where` it came from. */
export function parseWorkerSecret(text: string, where: string): string {
  const secret = text.trim();
  if (!SECRET_FORM.test(secret)) throw new WorkerSecretError(`${where} does not hold a worker secret (RW- and 43 letters, digits, - or _).`);
  return secret;
}

/** The chunk and request keys of a worker secret. */
export function workerKeys(secret: string): WorkerKeys {
  const derive = (purpose: string) => createHmac('sha256', secret).update(`renderdrop worker ${purpose} v2`).digest();
  return { chunk: derive('chunk'), request: derive('request') };
}

/**
 * Make a node's worker secret and store it in its data folder, readable by its owner only. An
 * existing secret is kept unless `rotate` (then workers need the new one, and the node a restart).
 */
export async function createWorkerSecretFile(dataDir: string, rotate: boolean): Promise<{ secret: string; path: string }> {
  const path = join(dataDir, WORKER_SECRET_FILE);
  const existing = await readFile(path, 'utf8').catch(() => null);
  if (existing !== null && !rotate) throw new WorkerSecretError(`This node already has a worker secret (${path}); add --rotate to replace it.`);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const secret = newWorkerSecret();
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    await chmod(temp, 0o600);
    await rename(temp, path);
  } finally {
    await rm(temp, { force: true });
  }
  return { secret, path };
}

/** The worker secret of a node: `given` (e.g. from RENDERDROP_WORKER_SECRET) or its data folder's file. */
export async function loadNodeWorkerSecret(dataDir: string, given: string | undefined): Promise<string> {
  if (given !== undefined) return parseWorkerSecret(given, 'RENDERDROP_WORKER_SECRET');
  const path = join(dataDir, WORKER_SECRET_FILE);
  const text = await readFile(path, 'utf8').catch(() => null);
  if (text === null) {
    throw new WorkerSecretError(`Rendering on workers needs a worker secret, and ${path} does not exist: create it with "renderdrop node worker-secret --data ${dataDir}" and give it to each worker.`);
  }
  return parseWorkerSecret(text, path);
}
