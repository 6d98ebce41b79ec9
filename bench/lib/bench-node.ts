import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { ApiClient } from '../../src/core/api/api-client';
import { startTestNode, type TestNode } from '../../test/helpers/node';
import { onCleanup } from './cleanup';

/** A real render node for a benchmark, and a Renderdrop API client holding its key. */
export interface BenchNode {
  test: TestNode;
  client: ApiClient;
  stop: () => Promise<void>;
}

/**
 * Starts a real render node in this process on 127.0.0.1, without Blender, in a fresh data folder
 * under `parentDir` (default: the system temp folder) that is deleted when it stops, also on Ctrl-C.
 * Logs only warnings, and the rate limit is lifted so the reference clients are never throttled.
 */
export async function startBenchNode(parentDir = tmpdir()): Promise<BenchNode> {
  const dataDir = await mkdtemp(join(parentDir, 'rd-bench-node-'));
  const removeData = onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  const test = await startTestNode({
    dataDir,
    blender: null,
    logger: pino({ level: 'warn' }, pino.destination(2)),
    rateLimit: { limit: 1_000_000_000, windowMs: 60_000 },
  });
  const client = new ApiClient({ baseUrl: test.url, apiKey: test.key });
  const stopNode = onCleanup(() => test.stop());
  return {
    test,
    client,
    stop: async () => {
      await stopNode();
      await removeData();
    },
  };
}
