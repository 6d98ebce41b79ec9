import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { startLocalNode, type LocalNode } from '../../../src/host/profiles/local-node';
import { localKeyAccount } from '../../../src/core/secrets/local-node-key';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';

const open: (LocalNode | Server)[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await ('listening' in o ? new Promise<void>((r) => o.close(() => r())) : o.close());
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

async function start(port: number, secrets = new MemorySecretStore()): Promise<LocalNode> {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'rd-local-')), 'node');
  const node = await startLocalNode({ dataDir, secrets, blender: null, port, logger: pino({ level: 'silent' }) });
  open.push(node);
  return node;
}

describe('the render node of "This computer"', () => {
  it('takes its usual port when it is free, so the CLI finds it there', async () => {
    const port = await freePort();
    const node = await start(port);
    expect(node.url).toBe(`http://127.0.0.1:${port}`);
  });

  it('falls back to any free port when the usual one is taken', async () => {
    const port = await freePort();
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(port, '127.0.0.1', () => r()));
    open.push(taken);
    const node = await start(port);
    expect(node.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(node.url).not.toBe(`http://127.0.0.1:${port}`);
    const res = await fetch(`${node.url}/api/external/v1/jobs`, { headers: { authorization: `Bearer ${node.apiKey}` } });
    expect(res.status).toBe(200);
  });

  it('keeps its key under the account the CLI looks up for "This computer"', async () => {
    const secrets = new MemorySecretStore();
    const dataDir = join(await mkdtemp(join(tmpdir(), 'rd-local-')), 'node');
    const node = await startLocalNode({ dataDir, secrets, blender: null, port: await freePort(), logger: pino({ level: 'silent' }) });
    open.push(node);
    expect(await secrets.get(localKeyAccount(dataDir))).toBe(node.apiKey);
  });

  it('starts with the saved renders at once and Blender threads, and takes new ones while it runs', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'rd-local-')), 'node');
    const node = await startLocalNode({ dataDir, secrets: new MemorySecretStore(), blender: null, port: await freePort(), logger: pino({ level: 'silent' }), renders: 2, threads: 3 });
    open.push(node);
    const workers = async () => (await fetch(`${node.url}/api/external/v1/node/workers`, { headers: { authorization: `Bearer ${node.apiKey}` } })).json();
    expect(await workers()).toEqual({ mode: 'embedded', renders: 2, threads: 3, tags: [] });
    node.configure({ renders: 1, threads: null });
    expect(await workers()).toEqual({ mode: 'embedded', renders: 1, threads: null, tags: [] });
  });
});

describe('the render node of "This computer" set up for render workers', () => {
  it('without a worker secret, says so in the artist\'s words, naming no command or folder', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'rd-local-')), 'node');
    const failure = await startLocalNode({
      dataDir,
      secrets: new MemorySecretStore(),
      blender: null,
      port: await freePort(),
      logger: pino({ level: 'silent' }),
      env: { RENDERDROP_REDIS_URL: 'redis://127.0.0.1:1' },
    }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ code: 'worker-secret-missing' });
    const message = (failure as Error).message;
    expect(message).toMatch(/no worker secret/);
    expect(message).not.toMatch(/renderdrop |--|\//);
  });
});
