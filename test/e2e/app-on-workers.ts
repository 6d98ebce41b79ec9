import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { freePort, startRedis, type TestRedis } from '../helpers/redis';
import { tempDir } from '../helpers/scene-files';
import { startWorkerProcess, stopWorker, TEST_WORKER_SECRET, type WorkerProcess } from '../helpers/workers';
import { openApp, type AppUnderTest } from './app-under-test';

/** The app in browser mode whose "This computer" renders on two worker processes over a private Redis. */
export interface AppOnWorkers {
  app: AppUnderTest;
  redis: TestRedis;
  workers: WorkerProcess[];
  /** The address of the app's local node, for more workers. */
  nodeUrl: string;
  /** Closes the app, stops the workers and Redis. */
  close(): Promise<void>;
}

/**
 * Starts Redis, the app with its local node in distributed mode, and workers `render-01` and
 * `render-02` (one thread each; `render-02` with `secondBlender` when given, for a farm of two versions;
 * each with the `tags` given for its name).
 */
export async function openAppOnWorkers(browser: Browser, tools: { blender: string; redisServer: string; secondBlender?: string; tags?: Record<string, string[]> }, cachePrefix: string): Promise<AppOnWorkers> {
  const redis = await startRedis(tools.redisServer);
  const workers: WorkerProcess[] = [];
  let app: AppUnderTest | null = null;
  const close = async () => {
    await app?.close();
    await Promise.allSettled(workers.map((w) => stopWorker(w)));
    await redis.dispose();
  };
  try {
    const caches = await tempDir(cachePrefix);
    const port = await freePort();
    const env = { ...process.env, RENDERDROP_API_KEY: '', RENDERDROP_BASE_URL: '', RENDERDROP_REDIS_URL: redis.url, RENDERDROP_WORKER_SECRET: TEST_WORKER_SECRET };
    app = await openApp(browser, { env, localNodePort: port });
    for (const name of ['render-01', 'render-02']) {
      const blender = name === 'render-02' && tools.secondBlender ? tools.secondBlender : tools.blender;
      const tags = tools.tags?.[name];
      workers.push(await startWorkerProcess({ redis: redis.url, node: `http://127.0.0.1:${port}`, name, cacheDir: join(caches, name), blender, threads: 1, ...(tags ? { tags } : {}) }));
    }
    return { app, redis, workers, nodeUrl: `http://127.0.0.1:${port}`, close };
  } catch (error) {
    await close();
    throw error;
  }
}
