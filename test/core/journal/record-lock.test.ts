import { readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SubmissionBusyError } from '../../../src/core/errors';
import { SubmissionJournal } from '../../../src/core/journal/submission-journal';
import { deadPid } from '../../helpers/dead-pid';
import { tempDir } from '../../helpers/scene-files';

const file = { path: '/scenes/a.blend', name: 'a.blend', size: 100, mtimeMs: 1, fileType: 'blend' as const };

async function setup() {
  const dataDir = await tempDir();
  const journal = new SubmissionJournal({ dataDir });
  const record = await journal.create({ baseUrl: 'http://x', profileId: null, file });
  return { dataDir, journal, id: record.id };
}

describe('SubmissionJournal.lock', () => {
  it('lets one journal at a time hold a submission', async () => {
    const { dataDir, journal, id } = await setup();
    const other = new SubmissionJournal({ dataDir });
    const held = await journal.lock(id);
    await expect(other.lock(id)).rejects.toMatchObject({ kind: 'journal', code: 'busy', pid: process.pid });
    held.release();
    const next = await other.lock(id);
    next.release();
    expect(await readdir(journal.dir)).toEqual([`${id}.json`]);
  });

  it('refuses a submission another live process holds, naming that process', async () => {
    const { journal, id } = await setup();
    const other = process.ppid;
    await writeFile(join(journal.dir, `${id}.lock`), JSON.stringify({ pid: other, host: hostname(), token: 'other000', since: '' }));
    const error = await journal.lock(id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SubmissionBusyError);
    expect((error as SubmissionBusyError).message).toBe(`This submission is being continued by another Renderdrop (process ${other}).`);
  });

  it('takes over the lock of a process that died holding it', async () => {
    const { journal, id } = await setup();
    const dead = deadPid();
    await writeFile(join(journal.dir, `${id}.lock`), JSON.stringify({ pid: dead, host: hostname(), token: 'dead0000', since: '' }));
    const lock = await journal.lock(id);
    expect(JSON.parse(await readFile(join(journal.dir, `${id}.lock`), 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
    expect(await readdir(journal.dir)).toEqual([`${id}.json`]);
  });

  it('takes over a lock left half-written', async () => {
    const { journal, id } = await setup();
    await writeFile(join(journal.dir, `${id}.lock`), '{"pid": 12');
    const lock = await journal.lock(id);
    expect(JSON.parse(await readFile(join(journal.dir, `${id}.lock`), 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    lock.release();
    expect(await readdir(journal.dir)).toEqual([`${id}.json`]);
  });

  it('treats a lock from another computer as held, and says how to clear it', async () => {
    const { journal, id } = await setup();
    const path = join(journal.dir, `${id}.lock`);
    await writeFile(path, JSON.stringify({ pid: 4242, host: 'studio-pc-7', token: 'abc', since: '' }));
    const error = await journal.lock(id).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'busy', pid: 4242, host: 'studio-pc-7' });
    expect((error as Error).message).toContain(`process 4242 on studio-pc-7`);
    expect((error as Error).message).toContain(path);
  });

  it('releases only its own lock', async () => {
    const { dataDir, journal, id } = await setup();
    const mine = await journal.lock(id);
    const path = join(journal.dir, `${id}.lock`);
    const theirs = JSON.stringify({ pid: process.pid, host: JSON.parse(await readFile(path, 'utf8')).host, token: 'someone-else', since: '' });
    await writeFile(path, theirs);
    mine.release();
    expect(await readFile(path, 'utf8')).toBe(theirs);
    await expect(new SubmissionJournal({ dataDir }).lock(id)).rejects.toBeInstanceOf(SubmissionBusyError);
  });
});
