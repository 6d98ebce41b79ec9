import type { NodeWorkers } from '../shared/api';
import type { BlenderInfo } from './blender/probe';
import { createKey, listKeys, revokeKey, verifyKey, type ApiKeyInfo } from './store/keys';
import { createRenderNode, type RenderNode, type RenderNodeOptions } from './server';

/** The API keys of a running node. */
export interface NodeKeys {
  /** Makes a key; the key itself is returned once and only its hash is stored. */
  create(name: string): { key: string; info: ApiKeyInfo };
  list(): ApiKeyInfo[];
  /** Revokes a key by id (or unique id prefix) or name; null when none matches. */
  revoke(idOrName: string): ApiKeyInfo | null;
  /** The key's record when it is valid and not revoked, else null. */
  verify(key: string): ApiKeyInfo | null;
}

/** What a program embedding a render node may use of it: its keys, its Blender, listening and closing. */
export interface NodeFacade {
  keys: NodeKeys;
  blender: BlenderInfo | null;
  /** Listens and starts the job runner; resolves to the node's URL. */
  listen(host: string, port: number): Promise<string>;
  /** How the node renders and, when it renders on workers, the workers. */
  workers(): Promise<NodeWorkers>;
  /** Changes how many renders run at once and the Blender threads of each, while the node runs. */
  configure(settings: { renders?: number; threads?: number | null }): void;
  close(): Promise<void>;
}

/** The facade of a node. */
export function nodeFacade(node: RenderNode): NodeFacade {
  const db = node.ctx.db;
  return {
    keys: {
      create: (name) => createKey(db, name),
      list: () => listKeys(db),
      revoke: (idOrName) => revokeKey(db, idOrName),
      verify: (key) => verifyKey(db, key),
    },
    blender: node.blender,
    listen: (host, port) => node.listen(host, port),
    workers: () => node.workers(),
    configure: (settings) => node.ctx.runner.configure(settings),
    close: () => node.close(),
  };
}

/** Creates a render node and returns its facade. */
export async function startNodeFacade(options: RenderNodeOptions): Promise<NodeFacade> {
  return nodeFacade(await createRenderNode(options));
}
