import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parseHolder } from '../../src/node-common/file-lock';
import { ROOT } from '../helpers/cli';
import { deadPid } from '../helpers/dead-pid';

const script = fileURLToPath(new URL('./helpers/race-file-lock.script.ts', import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Start a contender and resolve with what it says ('held' or 'busy'). */
function contender(path: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, path], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/held|busy/.test(out)) resolve(out.trim());
    });
    child.on('exit', (code) => (/held|busy/.test(out) ? undefined : reject(new Error(`contender exited ${code}`))));
  });
}

describe('acquireFileLock across processes', () => {
  it('gives exactly one of several processes the lock of a holder that died', async () => {
    for (let round = 0; round < 3; round++) {
      const dir = await mkdtemp(join(tmpdir(), 'rd-file-lock-'));
      const path = join(dir, 'x.lock');
      await writeFile(path, JSON.stringify({ pid: deadPid(), host: hostname(), token: 'dead0000', since: '' }));
      const answers = await Promise.all(Array.from({ length: 8 }, () => contender(path)));
      expect(answers.filter((a) => a === 'held')).toHaveLength(1);
      expect(parseHolder(await readFile(path, 'utf8'))?.token).not.toBe('dead0000');
      expect(existsSync(`${path}.break`)).toBe(false);
      for (const child of children.splice(0)) child.kill('SIGKILL');
    }
  }, 60_000);
});
