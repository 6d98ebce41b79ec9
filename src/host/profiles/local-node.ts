import { mkdir } from 'node:fs/promises';
import type { Logger } from 'pino';
import { type SecretStore, localKeyAccount, readLocalClientFile, removeOwnLocalClientFile, THIS_COMPUTER_PORT, writeLocalClientFile } from '../../core/secrets';
import type { BlenderInfo } from '../../render-node/blender';
import { createLogger } from '../../render-node/logger';
import { startNodeFacade, type NodeFacade } from '../../render-node/node-facade';
import type { RenderNodeOptions } from '../../render-node/server';
import type { NodeWorkers } from '../../shared/api';
import { ConfigError } from '../../core/errors';
import { RedisUnavailableError, WorkerSecretError } from '../../render-node/worker-access';

export { localKeyAccount };

/** The key name the app's own node key is created under. */
export const LOCAL_KEY_NAME = 'Renderdrop app (this computer)';

/** The key name of the key the app's node gives clients on this computer (the CLI, the Blender add-on) through `local-client.json`. */
export const LOCAL_CLIENTS_KEY_NAME = 'Clients on this computer';

/** The render node of the profile "This computer", running inside the host. */
export interface LocalNode {
  url: string;
  /** The node's API key for the app; held in memory and in the secret store, never in a file. */
  apiKey: string;
  blender: BlenderInfo | null;
  /** Where the key is kept between runs. */
  keyStorage: 'store' | 'memory';
  /** How the node renders and, when it renders on workers, the workers. */
  workers(): Promise<NodeWorkers>;
  /** Applies "This computer"'s settings (renders at once, Blender threads) to the running node. */
  configure(settings: NodeSettings): void;
  close(): Promise<void>;
}

/** How "This computer" renders: renders at once, and Blender threads per render (null: all cores). */
export interface NodeSettings {
  renders: number;
  threads: number | null;
}

/** How to start the local node. */
export interface LocalNodeOptions {
  dataDir: string;
  secrets: SecretStore;
  /** A Blender already probed, null for none, undefined to detect one. */
  blender?: BlenderInfo | null;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  renders?: number;
  /** Blender threads per render (null or absent: all cores). */
  threads?: number | null;
  /** Port to listen on when it is free (default 8787, where the CLI's "This computer" looks); else any free port. */
  port?: number;
}

/**
 * Starts a render node on 127.0.0.1 (port 8787 when free, else any free port) with its data in `dataDir`. Its API key is reused
 * from the secret store when still valid there; otherwise a new one is made (older app keys revoked)
 * and kept in the store, or only in memory when the store refuses it.
 */
export async function startLocalNode(options: LocalNodeOptions): Promise<LocalNode> {
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  let node: NodeFacade;
  try {
    node = await startNodeFacade({
      dataDir: options.dataDir,
      ...(options.blender !== undefined ? { blender: options.blender } : {}),
      env: options.env ?? process.env,
      logger: options.logger ?? createLogger({ level: 'warn' }),
      ...(options.renders ? { concurrency: { renders: options.renders, validations: 2 } } : {}),
      ...(options.threads ? { threads: options.threads } : {}),
      distributed: distributedFrom(options.env ?? process.env),
    });
  } catch (error) {
    if (error instanceof RedisUnavailableError) throw new ConfigError(error.message, { code: 'redis-unavailable' });
    if (error instanceof WorkerSecretError) {
      throw new ConfigError(
        'This computer is set up to render on render workers, but has no worker secret to sign their work with. Ask whoever set up the render workers for it.',
        { code: 'worker-secret-missing' },
      );
    }
    throw error;
  }
  try {
    const { apiKey, keyStorage } = await ensureKey(node, options.secrets, localKeyAccount(options.dataDir));
    const url = await node.listen('127.0.0.1', options.port ?? THIS_COMPUTER_PORT).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE') throw error;
      return node.listen('127.0.0.1', 0);
    });
    const clientKey = await publishForLocalClients(node, options.dataDir, url);
    const close = async () => {
      await removeOwnLocalClientFile(options.dataDir, clientKey);
      await node.close();
    };
    return { url, apiKey, blender: node.blender, keyStorage, workers: () => node.workers(), configure: (settings) => node.configure(settings), close };
  } catch (error) {
    await node.close();
    throw error;
  }
}

/**
 * With RENDERDROP_REDIS_URL set (password in RENDERDROP_REDIS_PASSWORD, worker secret in
 * RENDERDROP_WORKER_SECRET or the node's data folder), the app's node renders on the render workers of
 * that Redis (docs/studio.md), as `renderdrop node serve --redis` does.
 */
function distributedFrom(env: NodeJS.ProcessEnv): RenderNodeOptions['distributed'] {
  const url = env.RENDERDROP_REDIS_URL;
  if (!url) return null;
  const workerSecret = env.RENDERDROP_WORKER_SECRET;
  return { redis: { url, ...(env.RENDERDROP_REDIS_PASSWORD ? { password: env.RENDERDROP_REDIS_PASSWORD } : {}) }, chunkSize: null, ...(workerSecret ? { workerSecret } : {}) };
}

/**
 * Writes `local-client.json` beside the node's data (0600): the address the node took and a key of its
 * own for clients on this computer, so `renderdrop` and the Blender add-on reach the app's node while it
 * runs, whatever port it took, with no key typed. The key of the previous run is reused while valid.
 */
async function publishForLocalClients(node: NodeFacade, dataDir: string, url: string): Promise<string> {
  const previous = await readLocalClientFile(dataDir, () => true);
  let key = previous && node.keys.verify(previous.apiKey)?.name === LOCAL_CLIENTS_KEY_NAME ? previous.apiKey : null;
  if (!key) {
    for (const old of node.keys.list()) {
      if (old.name === LOCAL_CLIENTS_KEY_NAME && old.revokedAt === null) node.keys.revoke(old.id);
    }
    key = node.keys.create(LOCAL_CLIENTS_KEY_NAME).key;
  }
  await writeLocalClientFile(dataDir, { version: 1, url, apiKey: key, pid: process.pid });
  return key;
}

async function ensureKey(node: NodeFacade, secrets: SecretStore, account: string): Promise<{ apiKey: string; keyStorage: 'store' | 'memory' }> {
  const stored = await secrets.get(account).catch(() => null);
  if (stored && node.keys.verify(stored)) return { apiKey: stored, keyStorage: 'store' };
  for (const old of node.keys.list()) {
    if (old.name === LOCAL_KEY_NAME && old.revokedAt === null) node.keys.revoke(old.id);
  }
  const { key } = node.keys.create(LOCAL_KEY_NAME);
  try {
    await secrets.set(account, key);
    return { apiKey: key, keyStorage: 'store' };
  } catch {
    return { apiKey: key, keyStorage: 'memory' };
  }
}

