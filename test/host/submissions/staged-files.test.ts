import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SubmissionRecord } from '../../../src/core/journal/submission-record';
import { STAGED_RETENTION, StagedFiles, stagedFilesToKeep } from '../../../src/host/submissions/staged-files';
import { tempDir } from '../../helpers/scene-files';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let dirs: string[] = [];

afterEach(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  dirs = [];
});

function record(path: string, fields: Partial<SubmissionRecord> & { ageMs: number }): SubmissionRecord {
  const at = new Date(NOW - fields.ageMs).toISOString();
  return {
    version: 1,
    id: `id-${Math.random().toString(36).slice(2)}`,
    createdAt: at,
    updatedAt: at,
    baseUrl: 'http://farm',
    profileId: 'p',
    file: { path, name: 'scene.blend', size: 1, mtimeMs: 0, fileType: 'blend' },
    step: 'preflighted',
    pack: true,
    packing: null,
    bundle: null,
    ending: null,
    slug: null,
    uploadExpiresAt: null,
    jobIntentAt: null,
    jobId: null,
    validateBody: null,
    renderConfig: null,
    download: { wanted: false, dir: null },
    downloadedTo: null,
    error: null,
    history: [],
    ...fields,
  };
}

async function stageAged(staged: StagedFiles, token: string, ageMs: number): Promise<string> {
  const folder = join(staged.dir, token);
  await mkdir(folder, { recursive: true });
  const path = join(folder, 'scene.blend');
  await writeFile(path, 'x');
  const at = new Date(NOW - ageMs);
  await utimes(path, at, at);
  await utimes(folder, at, at);
  return path;
}

describe('stagedFilesToKeep', () => {
  it('keeps unfinished submissions whatever their age, and finished ones with a job for 7 days', () => {
    const keep = stagedFilesToKeep(
      [
        record('/s/unfinished', { ageMs: 90 * DAY, step: 'uploaded' }),
        record('/s/recent', { ageMs: 6 * DAY, step: 'downloaded', jobId: 'j1' }),
        record('/s/old', { ageMs: 8 * DAY, step: 'downloaded', jobId: 'j2' }),
        record('/s/declined-without-job', { ageMs: HOUR, ending: 'declined' }),
      ],
      NOW,
    );
    expect([...keep].sort()).toEqual(['/s/recent', '/s/unfinished']);
  });

  it('keeps the files of at most the 20 most recent finished submissions', () => {
    const finished = Array.from({ length: 25 }, (_, i) => record(`/s/${String(i).padStart(2, '0')}`, { ageMs: i * HOUR, step: 'completed', jobId: `j${i}` }));
    const keep = stagedFilesToKeep(finished, NOW);
    expect(keep.size).toBe(STAGED_RETENTION.finishedSubmissions);
    expect(keep.has('/s/00')).toBe(true);
    expect(keep.has('/s/19')).toBe(true);
    expect(keep.has('/s/20')).toBe(false);
  });
});

describe('StagedFiles.sweep', () => {
  it('removes staged files nobody keeps, but not those written within the last hour', async () => {
    const dir = await tempDir('rd-staged-');
    dirs.push(dir);
    const staged = new StagedFiles(join(dir, 'staged'));
    const kept = await stageAged(staged, 'kept-token-0000000001', 30 * DAY);
    await stageAged(staged, 'stale-token-000000001', 2 * HOUR);
    await stageAged(staged, 'fresh-token-000000001', 10 * 60 * 1000);
    const removed = await staged.sweep(new Set([kept, '/elsewhere/scene.blend']), NOW);
    expect(removed).toEqual(['stale-token-000000001']);
    expect((await readdir(staged.dir)).sort()).toEqual(['fresh-token-000000001', 'kept-token-0000000001']);
  });

  it('does nothing when nothing was ever staged', async () => {
    const dir = await tempDir('rd-staged-');
    dirs.push(dir);
    expect(await new StagedFiles(join(dir, 'staged')).sweep(new Set(), NOW)).toEqual([]);
  });
});
