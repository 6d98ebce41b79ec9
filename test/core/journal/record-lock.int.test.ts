import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SubmissionBusyError } from '../../../src/core/errors';
import { SubmissionJournal } from '../../../src/core/journal/submission-journal';
import { ROOT } from '../../helpers/cli';
import { tempDir } from '../../helpers/scene-files';

const script = fileURLToPath(new URL('./helpers/hold-record-lock.script.ts', import.meta.url));
const file = { path: '/scenes/a.blend', name: 'a.blend', size: 100, mtimeMs: 1, fileType: 'blend' as const };
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Starts another process that takes the submission's lock; resolves once it holds it. */
function holdInAnotherProcess(dataDir: string, id: string): Promise<ChildProcessWithoutNullStreams> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir, id], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('locked')) resolve(child);
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`the lock holder exited (${code}):\n${output}`)));
  });
}

function exited(child: ChildProcessWithoutNullStreams): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

async function setup() {
  const dataDir = await tempDir();
  const journal = new SubmissionJournal({ dataDir });
  const record = await journal.create({ baseUrl: 'http://x', profileId: null, file });
  return { dataDir, journal, id: record.id };
}

describe('SubmissionJournal.lock against another process', () => {
  it('refuses a submission another live process holds, naming that process', async () => {
    const { dataDir, journal, id } = await setup();
    const child = await holdInAnotherProcess(dataDir, id);
    const error = await journal.lock(id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SubmissionBusyError);
    expect((error as SubmissionBusyError).message).toBe(`This submission is being continued by another Renderdrop (process ${child.pid}).`);
    child.stdin.end();
    await exited(child);
    const lock = await journal.lock(id);
    lock.release();
  });

  it('takes over the lock of a process that died holding it', async () => {
    const { dataDir, journal, id } = await setup();
    const child = await holdInAnotherProcess(dataDir, id);
    child.kill('SIGKILL');
    await exited(child);
    expect(JSON.parse(await readFile(join(journal.dir, `${id}.lock`), 'utf8'))).toMatchObject({ pid: child.pid });
    const lock = await journal.lock(id);
    expect(JSON.parse(await readFile(join(journal.dir, `${id}.lock`), 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
    expect(await readdir(journal.dir)).toEqual([`${id}.json`]);
  });
});
