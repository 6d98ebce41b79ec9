import { beforeEach, describe, expect, it } from 'vitest';
import { SubmissionJournal } from '../../../../src/core/journal/submission-journal';
import { sentInChunksBefore } from '../../../../src/core/lifecycle/steps/sent-in-chunks-before';
import { tempDir } from '../../../helpers/scene-files';

const NODE = 'http://127.0.0.1:8787';
const file = (path: string) => ({ path, name: path.split('/').at(-1)!, size: 100, mtimeMs: 1, fileType: 'blend' as const });

describe('sentInChunksBefore', () => {
  let journal: SubmissionJournal;
  beforeEach(async () => {
    journal = new SubmissionJournal({ dataDir: await tempDir() });
  });

  it('is false for a project never sent to this node, and true once it went there as a chunked upload', async () => {
    const first = await journal.create({ baseUrl: NODE, profileId: 'studio', file: file('/proj/scene.blend') });
    expect(await sentInChunksBefore(journal, first)).toBe(false);
    await journal.update(first.id, { step: 'uploaded', slug: 'u-1', uploadSent: { bytesSent: 100, bytesReused: 0 } });
    const again = await journal.create({ baseUrl: NODE, profileId: 'studio', file: file('/proj/scene.blend') });
    expect(await sentInChunksBefore(journal, again)).toBe(true);
    const sibling = await journal.create({ baseUrl: NODE, profileId: 'studio', file: file('/proj/shot_020.blend') });
    expect(await sentInChunksBefore(journal, sibling)).toBe(true);
  });

  it('is false for the same project sent to another farm or profile, or PUT whole to a farm without chunks', async () => {
    const elsewhere = await journal.create({ baseUrl: 'http://farm.example', profileId: 'studio', file: file('/proj/scene.blend') });
    await journal.update(elsewhere.id, { step: 'uploaded', slug: 'u-1', uploadSent: { bytesSent: 100, bytesReused: 0 } });
    const otherProfile = await journal.create({ baseUrl: NODE, profileId: 'home', file: file('/proj/scene.blend') });
    await journal.update(otherProfile.id, { step: 'uploaded', slug: 'u-2', uploadSent: { bytesSent: 100, bytesReused: 0 } });
    const plainPut = await journal.create({ baseUrl: NODE, profileId: 'studio', file: file('/proj/scene.blend') });
    await journal.update(plainPut.id, { step: 'uploaded', slug: 'u-3' });
    const now = await journal.create({ baseUrl: NODE, profileId: 'studio', file: file('/proj/scene.blend') });
    expect(await sentInChunksBefore(journal, now)).toBe(false);
  });

  it('is true for a submission whose upload already began (resumed after a stop: the node kept what arrived)', async () => {
    const record = await journal.create({ baseUrl: NODE, profileId: null, file: file('/proj/scene.blend') });
    expect(await sentInChunksBefore(journal, await journal.update(record.id, { step: 'upload-target', slug: null }))).toBe(true);
  });
});
