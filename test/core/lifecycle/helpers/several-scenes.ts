import { afterEach, beforeEach, expect, it } from 'vitest';
import { ApiClient } from '../../../../src/core/api/api-client';
import { SubmissionJournal } from '../../../../src/core/journal/submission-journal';
import { awaitsDecision, lifecyclePhase } from '../../../../src/core/lifecycle/lifecycle-states';
import { recordForFile } from '../../../../src/core/lifecycle/record-for-file';
import { scenesToChooseFrom } from '../../../../src/core/lifecycle/scene-choice';
import { SubmissionLifecycle } from '../../../../src/core/lifecycle/submission-lifecycle';
import { pollingWaiter } from '../../../../src/core/lifecycle/wait-for-job';
import { preflight } from '../../../../src/core/upload/preflight';
import { FakeApi } from '../../../helpers/fake-api-server';
import { blendBytes, tempDir } from '../../../helpers/scene-files';

/** Two scenes at the top of a project, a library below them and a texture. */
export const SCENES = { 'shot A.blend': blendBytes(4_000), 'shot B.blend': blendBytes(5_000), 'lib/props.blend': blendBytes(300), 'textures/wood.png': 'png' };

/** A fake farm and a journal per test, and the lifecycle and records that use them. */
export interface SceneChoiceHarness {
  readonly api: FakeApi;
  readonly journal: SubmissionJournal;
  lifecycle(): SubmissionLifecycle;
  record(filePath: string, extra?: Partial<Parameters<typeof recordForFile>[1]>): ReturnType<typeof recordOf>;
}

function recordOf(journal: SubmissionJournal, api: FakeApi, filePath: string, extra: Partial<Parameters<typeof recordForFile>[1]> = {}) {
  return recordForFile(journal, { filePath, baseUrl: api.server.url, profileId: null, ...extra }).then((r) => r.record);
}

/** Registers the hooks of the enclosing describe (or file) that start a fake farm and a journal for each test. */
export function sceneChoiceHarness(): SceneChoiceHarness {
  let api: FakeApi;
  let journal: SubmissionJournal;
  beforeEach(async () => {
    api = await FakeApi.start();
    journal = new SubmissionJournal({ dataDir: await tempDir() });
  });
  afterEach(async () => {
    await api.server.close();
  });
  return {
    get api() {
      return api;
    },
    get journal() {
      return journal;
    },
    lifecycle() {
      const client = new ApiClient({ baseUrl: api.server.url, apiKey: 'RJ-scene-choice', sleep: async () => undefined });
      return new SubmissionLifecycle({ client, journal, waitForJob: pollingWaiter(client, { intervalMs: 5 }) });
    },
    record: (filePath, extra = {}) => recordOf(journal, api, filePath, extra),
  };
}

/** The tests of a zip holding several scenes, for zips made by `makeZip` (a library, or a real zip tool). */
export function severalScenesCases(h: SceneChoiceHarness, makeZip: (name: string, files: typeof SCENES) => Promise<string>): void {
  it('is listed by preflight, scenes and libraries alike, and recorded with the choice to make', async () => {
    const zip = await makeZip('shots.zip', SCENES);
    expect((await preflight(zip)).blendEntries.sort()).toEqual(['lib/props.blend', 'shot A.blend', 'shot B.blend']);
    const recorded = await h.record(zip);
    expect(scenesToChooseFrom(recorded)?.sort()).toEqual(['shot A.blend', 'shot B.blend']);
    expect(recorded.validateBody).toBeNull();
  });

  it('is uploaded once, waits after the upload for the scene, then validates the one chosen', async () => {
    const recorded = await h.record(await makeZip('shots.zip', SCENES));
    const claimed = await h.lifecycle().claim(recorded);
    try {
      const waiting = await claimed.advance({ until: 'validated' });
      expect(waiting.step).toBe('uploaded');
      expect(awaitsDecision(waiting)).toBe(true);
      expect(lifecyclePhase(waiting)).toBe('choosing-scene');
      expect(h.api.count('POST', '/api/external/v1/jobs')).toBe(0);
      expect(await claimed.advance({ until: 'validated' })).toMatchObject({ step: 'uploaded' });

      await claimed.chooseScene('shot B.blend');
      const validated = await claimed.advance({ until: 'validated' });
      expect(validated.step).toBe('validated');
      expect(validated.validateBody).toEqual({ scenePath: 'shot B.blend' });
      const [job] = [...h.api.jobs.values()];
      expect(job!.validateBodies).toEqual([{ scenePath: 'shot B.blend' }]);
      expect(h.api.count('PUT', /^\/storage\//)).toBe(1);
      expect(h.api.count('POST', '/api/external/v1/uploads')).toBe(1);
      await expect(claimed.chooseScene('shot A.blend')).rejects.toThrow(/already being validated with shot B\.blend/);
    } finally {
      claimed.release();
    }
  });
}
