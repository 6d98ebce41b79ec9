import { utimes } from 'node:fs/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { SubmissionJournal } from '../../../src/core/journal/submission-journal';
import { recordForFile } from '../../../src/core/lifecycle/record-for-file';
import { blendBytes, tempDir, writeScene } from '../../helpers/scene-files';

let journal: SubmissionJournal;
let scene: string;
const SERVER = 'http://127.0.0.1:8787';

beforeEach(async () => {
  journal = new SubmissionJournal({ dataDir: await tempDir() });
  scene = await writeScene(await tempDir(), 'Shot 010.blend', blendBytes(5_000));
});

describe('recordForFile', () => {
  it('records nothing for a file that fails its checks', async () => {
    const notBlend = await writeScene(await tempDir(), 'notes.blend', Buffer.from('hello, not a scene'));
    await expect(recordForFile(journal, { filePath: notBlend, baseUrl: SERVER, profileId: null })).rejects.toMatchObject({ kind: 'preflight' });
    expect(await journal.list()).toEqual([]);
  });

  it('continues the unfinished submission of this very file when asked to, taking the new download folder', async () => {
    const first = await recordForFile(journal, { filePath: scene, baseUrl: SERVER, profileId: null });
    const asked: string[] = [];
    const again = await recordForFile(journal, {
      filePath: scene,
      baseUrl: `${SERVER}/`,
      profileId: null,
      download: { wanted: true, dir: null, root: '/frames' },
      continueEarlier: async (earlier) => (asked.push(earlier.id), true),
    });
    expect(asked).toEqual([first.record.id]);
    expect(again.record).toMatchObject({ id: first.record.id, download: { wanted: true, dir: null, root: '/frames' } });
    expect(await journal.list()).toHaveLength(1);
  });

  it('sets the earlier one aside when told not to continue it, and starts a new one', async () => {
    const first = await recordForFile(journal, { filePath: scene, baseUrl: SERVER, profileId: null });
    const again = await recordForFile(journal, { filePath: scene, baseUrl: SERVER, profileId: null, continueEarlier: async () => false });
    expect(again.record.id).not.toBe(first.record.id);
    expect(again.earlier).toMatchObject({ continued: false, record: { id: first.record.id } });
    expect(await journal.get(first.record.id)).toMatchObject({ ending: 'declined' });
  });

  it('never offers a submission to another server, or of a file that changed since', async () => {
    await recordForFile(journal, { filePath: scene, baseUrl: 'https://farm.example.com', profileId: null });
    const asked: string[] = [];
    const ask = async (earlier: { id: string }) => (asked.push(earlier.id), true);
    await recordForFile(journal, { filePath: scene, baseUrl: SERVER, profileId: null, continueEarlier: ask });
    await utimes(scene, new Date(), new Date(Date.now() + 60_000));
    await recordForFile(journal, { filePath: scene, baseUrl: SERVER, profileId: null, continueEarlier: ask });
    expect(asked).toEqual([]);
    expect(await journal.listUnfinished()).toHaveLength(3);
  });
});
