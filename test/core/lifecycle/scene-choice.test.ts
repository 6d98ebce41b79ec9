import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/api-client';
import { PreflightError } from '../../../src/core/errors';
import { SubmissionJournal } from '../../../src/core/journal/submission-journal';
import { awaitsDecision, lifecyclePhase } from '../../../src/core/lifecycle/lifecycle-states';
import { recordForFile } from '../../../src/core/lifecycle/record-for-file';
import { scenesToChooseFrom } from '../../../src/core/lifecycle/scene-choice';
import { SubmissionLifecycle } from '../../../src/core/lifecycle/submission-lifecycle';
import { pollingWaiter } from '../../../src/core/lifecycle/wait-for-job';
import { preflight } from '../../../src/core/upload/preflight';
import { FakeApi } from '../../helpers/fake-api-server';
import { folderZip } from '../../helpers/folder-zip';
import { blendBytes, tempDir, writeScene } from '../../helpers/scene-files';

const SCENES = { 'shot A.blend': blendBytes(4_000), 'shot B.blend': blendBytes(5_000), 'lib/props.blend': blendBytes(300), 'textures/wood.png': 'png' };

let api: FakeApi;
let journal: SubmissionJournal;
beforeEach(async () => {
  api = await FakeApi.start();
  journal = new SubmissionJournal({ dataDir: await tempDir() });
});
afterEach(async () => {
  await api.server.close();
});

function lifecycle(): SubmissionLifecycle {
  const client = new ApiClient({ baseUrl: api.server.url, apiKey: 'RJ-scene-choice', sleep: async () => undefined });
  return new SubmissionLifecycle({ client, journal, waitForJob: pollingWaiter(client, { intervalMs: 5 }) });
}

const record = (filePath: string, extra: Partial<Parameters<typeof recordForFile>[1]> = {}) =>
  recordForFile(journal, { filePath, baseUrl: api.server.url, profileId: null, ...extra }).then((r) => r.record);

describe('a zip holding several scenes', () => {
  it('is listed by preflight, scenes and libraries alike, and recorded with the choice to make', async () => {
    const zip = await folderZip('shots.zip', SCENES);
    expect((await preflight(zip)).blendEntries.sort()).toEqual(['lib/props.blend', 'shot A.blend', 'shot B.blend']);
    const recorded = await record(zip);
    expect(scenesToChooseFrom(recorded)?.sort()).toEqual(['shot A.blend', 'shot B.blend']);
    expect(recorded.validateBody).toBeNull();
  });

  it('is uploaded once, waits after the upload for the scene, then validates the one chosen', async () => {
    const recorded = await record(await folderZip('shots.zip', SCENES));
    const claimed = await lifecycle().claim(recorded);
    try {
      const waiting = await claimed.advance({ until: 'validated' });
      expect(waiting.step).toBe('uploaded');
      expect(awaitsDecision(waiting)).toBe(true);
      expect(lifecyclePhase(waiting)).toBe('choosing-scene');
      expect(api.count('POST', '/api/external/v1/jobs')).toBe(0);
      expect(await claimed.advance({ until: 'validated' })).toMatchObject({ step: 'uploaded' });

      await claimed.chooseScene('shot B.blend');
      const validated = await claimed.advance({ until: 'validated' });
      expect(validated.step).toBe('validated');
      expect(validated.validateBody).toEqual({ scenePath: 'shot B.blend' });
      const [job] = [...api.jobs.values()];
      expect(job!.validateBodies).toEqual([{ scenePath: 'shot B.blend' }]);
      expect(api.count('PUT', /^\/storage\//)).toBe(1);
      expect(api.count('POST', '/api/external/v1/uploads')).toBe(1);
      await expect(claimed.chooseScene('shot A.blend')).rejects.toThrow(/already being validated with shot B\.blend/);
    } finally {
      claimed.release();
    }
  });
});

describe('choosing the scene of a zip', () => {
  it('takes the choice made while the upload runs, and never stops', async () => {
    const recorded = await record(await folderZip('shots.zip', SCENES));
    const claimed = await lifecycle().claim(recorded);
    try {
      const running = claimed.advance({ until: 'validated' });
      await claimed.chooseScene('shot A.blend');
      expect(await running).toMatchObject({ step: 'validated', validateBody: { scenePath: 'shot A.blend' } });
    } finally {
      claimed.release();
    }
  });

  it('refuses a scene the zip lacks, naming those it holds, and records nothing for it', async () => {
    const recorded = await record(await folderZip('shots.zip', SCENES));
    const claimed = await lifecycle().claim(recorded);
    try {
      await expect(claimed.chooseScene('shot C.blend')).rejects.toThrow('shots.zip has no scene "shot C.blend". It holds: ');
      expect(claimed.record.validateBody).toBeNull();
    } finally {
      claimed.release();
    }
  });

  it('is settled before recording when the scene is named, with any separator, or asked for', async () => {
    const zip = await folderZip('shots.zip', SCENES);
    expect((await record(zip, { scenePath: '.\\shot B.blend' })).validateBody).toEqual({ scenePath: 'shot B.blend' });
    const asked: string[][] = [];
    const chosen = await record(zip, { chooseScene: async (scenes) => (asked.push([...scenes].sort()), 'shot A.blend') });
    expect(asked).toEqual([['shot A.blend', 'shot B.blend']]);
    expect(chosen.validateBody).toEqual({ scenePath: 'shot A.blend' });
    expect(scenesToChooseFrom(chosen)).toBeNull();
    const failure = await record(zip, { scenePath: 'other.blend' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PreflightError);
    expect((failure as PreflightError).message).toMatch(/^shots\.zip has no scene "other\.blend"\. It holds: .*shot A\.blend/);
    expect(await journal.list()).toHaveLength(2);
  });

  it('asks nothing of a zip whose one scene at the top uses libraries below it', async () => {
    const zip = await folderZip('one.zip', { 'main.blend': blendBytes(800), 'lib/props.blend': blendBytes(300) });
    const recorded = await record(zip, { chooseScene: async () => Promise.reject(new Error('must not ask')) });
    expect(scenesToChooseFrom(recorded)).toBeNull();
    expect(recorded.validateBody).toBeNull();
  });

  it('refuses a scene named for a .blend file', async () => {
    const dir = await tempDir();
    const blend = await writeScene(dir, 'shot.blend', blendBytes(400));
    await expect(record(blend, { scenePath: 'shot.blend' })).rejects.toMatchObject({ code: 'scene-not-in-zip' });
  });
});
