import { existsSync } from 'node:fs';
import { mkdtemp, readFile, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireFileLock, LockBusyError, parseHolder } from '../../src/node-common/file-lock';
import { deadPid } from '../helpers/dead-pid';

describe('acquireFileLock', () => {
  it('gives exactly one of several contenders the lock of a holder that died', async () => {
    for (let round = 0; round < 3; round++) {
      const dir = await mkdtemp(join(tmpdir(), 'rd-file-lock-'));
      const path = join(dir, 'x.lock');
      await writeFile(path, JSON.stringify({ pid: deadPid(), host: hostname(), token: 'dead0000', since: '' }));
      const answers = await Promise.allSettled(Array.from({ length: 8 }, () => acquireFileLock(path)));
      const held = answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
      expect(held).toHaveLength(1);
      for (const answer of answers) if (answer.status === 'rejected') expect(answer.reason).toMatchObject({ name: expect.stringMatching(/^Lock(Busy)?Error$/) });
      expect(parseHolder(await readFile(path, 'utf8'))?.token).not.toBe('dead0000');
      expect(existsSync(`${path}.break`)).toBe(false);
      held[0]!.release();
      expect(existsSync(path)).toBe(false);
    }
  });

  it('removes a breaker left by a process that died while breaking a stale lock', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rd-file-lock-'));
    const path = join(dir, 'x.lock');
    const dead = { pid: deadPid(), host: hostname(), since: '' };
    await writeFile(path, JSON.stringify({ ...dead, token: 'dead0000' }));
    await writeFile(`${path}.break`, JSON.stringify({ ...dead, token: 'dead0001' }));
    const lock = await acquireFileLock(path);
    expect(parseHolder(await readFile(path, 'utf8'))?.pid).toBe(process.pid);
    expect(existsSync(`${path}.break`)).toBe(false);
    lock.release();
  });

  it('removes an empty breaker (left on a full disk) once it is older than the stale time', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rd-file-lock-'));
    const path = join(dir, 'x.lock');
    await writeFile(path, JSON.stringify({ pid: deadPid(), host: hostname(), token: 'dead0000', since: '' }));
    await writeFile(`${path}.break`, '');
    const old = new Date(Date.now() - 60_000);
    await utimes(`${path}.break`, old, old);
    const lock = await acquireFileLock(path, { staleBreakerMs: 30_000 });
    expect(parseHolder(await readFile(path, 'utf8'))?.pid).toBe(process.pid);
    expect(existsSync(`${path}.break`)).toBe(false);
    lock.release();
  });

  it('waits for a fresh breaker instead of removing it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rd-file-lock-'));
    const path = join(dir, 'x.lock');
    await writeFile(path, JSON.stringify({ pid: deadPid(), host: hostname(), token: 'dead0000', since: '' }));
    await writeFile(`${path}.break`, '');
    const error = await acquireFileLock(path, { staleBreakerMs: 60_000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'LockError', step: 'contended' });
    expect(existsSync(`${path}.break`)).toBe(true);
    expect(parseHolder(await readFile(path, 'utf8'))?.token).toBe('dead0000');
  });

  it('refuses a lock held by a live process, naming it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rd-file-lock-'));
    const path = join(dir, 'x.lock');
    const lock = await acquireFileLock(path);
    const error = await acquireFileLock(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockBusyError);
    expect((error as LockBusyError).holder.pid).toBe(process.pid);
    lock.release();
    expect(existsSync(path)).toBe(false);
  });

  it('release removes only its own lock', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rd-file-lock-'));
    const path = join(dir, 'x.lock');
    const lock = await acquireFileLock(path);
    await writeFile(path, JSON.stringify({ pid: process.pid, host: hostname(), token: 'someone-else', since: '' }));
    lock.release();
    expect(existsSync(path)).toBe(true);
  });
});
