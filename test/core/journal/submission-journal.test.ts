import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../src/core/util/atomic-write';
import { SubmissionJournal } from '../../../src/core/journal/submission-journal';
import { isFinished } from '../../../src/core/journal/submission-record';
import { FakeTime } from '../../helpers/fake-time';
import { tempDir } from '../../helpers/scene-files';

const file = { path: '/scenes/a.blend', name: 'a.blend', size: 100, mtimeMs: 1_700_000_000_000.5, fileType: 'blend' as const };

describe('SubmissionJournal', () => {
  it('records steps atomically as one JSON file per submission', async () => {
    const dataDir = await tempDir();
    const time = new FakeTime();
    const journal = new SubmissionJournal({ dataDir, clock: time });
    const created = await journal.create({ baseUrl: 'http://x', profileId: 'p', file });
    time.current += 1000;
    await journal.advance(created.id, 'upload-target', { slug: 's' });
    await journal.advance(created.id, 'uploaded');
    const names = await readdir(join(dataDir, 'submissions'));
    expect(names).toEqual([`${created.id}.json`]);
    const stored = JSON.parse(await readFile(join(dataDir, 'submissions', names[0]!), 'utf8'));
    expect(stored).toMatchObject({ version: 1, step: 'uploaded', slug: 's', file });
    expect(stored.history.map((h: { step: string }) => h.step)).toEqual(['preflighted', 'upload-target', 'uploaded']);
  });

  it('serialises concurrent updates of one submission', async () => {
    const journal = new SubmissionJournal({ dataDir: await tempDir() });
    const { id } = await journal.create({ baseUrl: 'http://x', profileId: null, file });
    await Promise.all([journal.update(id, { slug: 'a' }), journal.update(id, { jobId: 'j' }), journal.advance(id, 'uploaded')]);
    expect(await journal.get(id)).toMatchObject({ slug: 'a', jobId: 'j', step: 'uploaded' });
  });

  it('lists unfinished submissions and finds the one of a file', async () => {
    const journal = new SubmissionJournal({ dataDir: await tempDir() });
    const a = await journal.create({ baseUrl: 'http://x', profileId: null, file });
    const b = await journal.create({ baseUrl: 'http://x', profileId: null, file: { ...file, path: '/scenes/b.blend' } });
    const c = await journal.create({ baseUrl: 'http://x', profileId: null, file, download: { wanted: false, dir: null } });
    await journal.advance(c.id, 'completed');
    await journal.update(b.id, { ending: 'failed', error: { kind: 'job-failed', message: 'x' } });
    expect((await journal.listUnfinished()).map((r) => r.id)).toEqual([a.id]);
    expect((await journal.findUnfinishedForFile(file.path, file.size, file.mtimeMs))?.id).toBe(a.id);
    expect(await journal.findUnfinishedForFile(file.path, 101, file.mtimeMs)).toBeNull();
    expect(isFinished((await journal.get(c.id))!)).toBe(true);
  });

  it('reads records written before packing existed: they pack, have no summary and no bundle', async () => {
    const dataDir = await tempDir();
    const journal = new SubmissionJournal({ dataDir });
    const { id } = await journal.create({ baseUrl: 'http://x', profileId: null, file });
    const path = join(dataDir, 'submissions', `${id}.json`);
    const { pack: _pack, packing: _packing, bundle: _bundle, ...older } = JSON.parse(await readFile(path, 'utf8'));
    await writeFile(path, JSON.stringify(older));
    expect(await journal.get(id)).toMatchObject({ id, step: 'preflighted', pack: true, packing: null, bundle: null });
  });

  it('deletes a bundle once its job exists or its submission ends, and sweeps bundles nobody needs', async () => {
    const dataDir = await tempDir();
    const journal = new SubmissionJournal({ dataDir });
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => journal.create({ baseUrl: 'http://x', profileId: null, file })));
    await mkdir(journal.bundleDir, { recursive: true });
    for (const name of [`${a!.id}.zip`, `${b!.id}.zip`, `${c!.id}.zip.part`, 'gone-record.zip']) await writeFile(join(journal.bundleDir, name), 'zip');
    const bundle = { path: journal.bundlePath(a!.id), sha256: 'x', size: 3 };
    await journal.advance(a!.id, 'packed', { bundle });
    expect((await readdir(journal.bundleDir)).sort()).toContain(`${a!.id}.zip`);
    await journal.advance(a!.id, 'job-created', { jobId: 'j' });
    await journal.update(b!.id, { ending: 'declined' });
    expect((await readdir(journal.bundleDir)).sort()).toEqual([`${c!.id}.zip.part`, 'gone-record.zip']);
    expect((await journal.get(a!.id))!.bundle).toEqual(bundle);
    await journal.sweepBundles();
    expect(await readdir(journal.bundleDir)).toEqual([`${c!.id}.zip.part`]);
    await journal.remove(c!.id);
    expect(await readdir(journal.bundleDir)).toEqual([]);
  });

  it('skips unreadable files instead of failing', async () => {
    const dataDir = await tempDir();
    const journal = new SubmissionJournal({ dataDir });
    await journal.create({ baseUrl: 'http://x', profileId: null, file });
    await writeFile(join(journal.dir, 'broken.json'), '{ not json');
    await writeFile(join(journal.dir, 'wrong.json'), '{"version": 99}');
    expect(await journal.list()).toHaveLength(1);
  });

  it('refuses ids that are not ids', async () => {
    const journal = new SubmissionJournal({ dataDir: await tempDir() });
    await expect(journal.update('../x', {})).rejects.toMatchObject({ kind: 'journal' });
  });
});

describe('writeFileAtomic', () => {
  it('replaces content and leaves no temporary file', async () => {
    const dir = await tempDir();
    const path = join(dir, 'x.json');
    await writeFileAtomic(path, 'one');
    await writeFileAtomic(path, 'two');
    expect(await readFile(path, 'utf8')).toBe('two');
    expect(await readdir(dir)).toEqual(['x.json']);
  });
});
