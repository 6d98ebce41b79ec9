import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireDataLock } from '../../../src/render-node/disk/data-lock';
import { deadPid } from '../../helpers/dead-pid';
import { startTestNode } from '../../helpers/node';

describe('data folder lock', () => {
  it('refuses a second node on the same data folder until the first is closed', async () => {
    const first = await startTestNode({ blender: null });
    await expect(startTestNode({ blender: null, dataDir: first.dataDir })).rejects.toThrow(/in use by another render node \(process \d+\)/);
    await first.node.close();
    const second = await startTestNode({ blender: null, dataDir: first.dataDir });
    expect((await second.call('GET', '/jobs')).status).toBe(200);
    await second.stop();
  });

  it('takes over the lock of a node that died', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rd-lock-'));
    await writeFile(join(dir, 'node.lock'), JSON.stringify({ pid: deadPid(), host: hostname(), token: 'dead0000' }));
    const lock = await acquireDataLock(dir);
    expect(existsSync(lock.path)).toBe(true);
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
  });

  it('leaves alone a fresh lock another node took while this one was taking over a dead one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rd-lock-'));
    await writeFile(join(dir, 'node.lock'), JSON.stringify({ pid: deadPid(), host: hostname(), token: 'dead0000' }));
    const [a, b] = await Promise.allSettled([acquireDataLock(dir), acquireDataLock(dir)]);
    const held = [a, b].filter((r) => r.status === 'fulfilled');
    expect(held).toHaveLength(1);
    expect([a, b].find((r) => r.status === 'rejected')?.reason.message).toMatch(/in use by another render node/);
  });

  it('takes over an unreadable lock file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rd-lock-'));
    await writeFile(join(dir, 'node.lock'), '{"pid":');
    const lock = await acquireDataLock(dir);
    expect(JSON.parse(await readFile(lock.path, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
  });
});
