import { describe, expect, it } from 'vitest';
import { mkdtemp, readdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../../src/render-node/store/db';
import { Storage } from '../../../src/render-node/disk/storage';
import { UploadsRepo } from '../../../src/render-node/store/uploads-repo';
import { cleanUploads } from '../../../src/render-node/store/upload-cleanup';

describe('cleanUploads', () => {
  it('removes old partial files and long-expired unused uploads, and keeps everything else', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rd-clean-'));
    const db = openDatabase(dir);
    const storage = new Storage(dir);
    const uploads = new UploadsRepo(db);
    const now = new Date('2026-11-21T12:00:00Z');
    const old = new Date(now.getTime() - 3 * 24 * 3600_000);
    const add = (slug: string, expiresAt: Date) =>
      uploads.create({ slug, fileName: `${slug}.blend`, fileType: 'blend', userId: 'u', createdAt: old.toISOString(), expiresAt: expiresAt.toISOString() });
    add('abandoned', old);
    add('used', old);
    uploads.claim('used', 'job-1');
    add('recent', new Date(now.getTime() - 3600_000));
    for (const slug of ['abandoned', 'used', 'recent']) await writeFile(storage.uploadPath(slug), 'BLENDER');
    await writeFile(join(storage.uploadsDir, '.part-old-1'), 'x');
    await utimes(join(storage.uploadsDir, '.part-old-1'), old, old);
    await writeFile(join(storage.uploadsDir, '.part-live-2'), 'x');
    await utimes(join(storage.uploadsDir, '.part-live-2'), now, now);

    expect(await cleanUploads(db, storage, now)).toEqual({ partial: 1, abandoned: 1 });
    expect((await readdir(storage.uploadsDir)).sort()).toEqual(['.part-live-2', 'recent', 'used']);
    expect(uploads.get('abandoned')).toBeNull();
    expect(uploads.get('used')?.jobId).toBe('job-1');
    db.close();
  });
});
