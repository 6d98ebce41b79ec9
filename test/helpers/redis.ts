import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/**
 * The `redis-server` the distributed tests start. Without one: null (so the caller can
 * `describe.skipIf(!redis)`), except in CI (`CI` set), where a missing Redis fails the run.
 */
export function requireRedis(): string | null {
  const path = process.env.REDIS_SERVER_PATH ?? 'redis-server';
  const found = spawnSync(path, ['--version'], { encoding: 'utf8' });
  if (found.status === 0 && /Redis server/.test(found.stdout)) return path;
  if (process.env.CI) {
    throw new Error('redis-server is required for the distributed tests in CI but was not found. Install it (e.g. `apt install redis-server`) or set REDIS_SERVER_PATH.');
  }
  return null;
}

/** A free TCP port on 127.0.0.1 (free when asked; good enough for a test server started at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A Redis started for a test on a free port, with its data in a temp folder and no persistence. */
export interface TestRedis {
  url: string;
  port: number;
  /** Stop it (SIGTERM; its data is gone: no persistence). */
  stop(): Promise<void>;
  /** Start it again on the same port, empty. */
  restart(): Promise<void>;
  /** Stop it and remove its folder. */
  dispose(): Promise<void>;
}

async function waitForPing(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}:\n${output()}`);
    const client = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    client.on('error', () => {});
    try {
      await client.connect();
      if ((await client.ping()) === 'PONG') return;
    } catch {
      // not up yet
    } finally {
      client.disconnect();
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`redis-server did not answer within 20 s:\n${output()}`);
}

/** Start `redis-server` on a free port of 127.0.0.1. */
export async function startRedis(serverPath: string, options: { password?: string } = {}): Promise<TestRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'rd-redis-'));
  const port = await freePort();
  const auth = options.password ? `:${encodeURIComponent(options.password)}@` : '';
  const url = `redis://${auth}127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const launch = async () => {
    let out = '';
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'];
    if (options.password) args.push('--requirepass', options.password);
    const started = spawn(serverPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    started.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    started.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child = started;
    await waitForPing(url, started, () => out);
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((r) => running.once('exit', r));
    running.kill('SIGTERM');
    await exited;
  };
  await launch();
  return {
    url,
    port,
    stop,
    async restart() {
      await stop();
      await launch();
    },
    async dispose() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
