import { describe, expect, it } from 'vitest';
import { PreflightError } from '../../../src/core/errors';
import { scenesToChooseFrom } from '../../../src/core/lifecycle/scene-choice';
import { folderZip } from '../../helpers/folder-zip';
import { blendBytes, tempDir, writeScene } from '../../helpers/scene-files';
import { SCENES, sceneChoiceHarness, severalScenesCases } from './helpers/several-scenes';

const h = sceneChoiceHarness();

describe('a zip holding several scenes', () => {
  severalScenesCases(h, folderZip);
});

describe('choosing the scene of a zip', () => {
  it('takes the choice made while the upload runs, and never stops', async () => {
    const recorded = await h.record(await folderZip('shots.zip', SCENES));
    const claimed = await h.lifecycle().claim(recorded);
    try {
      const running = claimed.advance({ until: 'validated' });
      await claimed.chooseScene('shot A.blend');
      expect(await running).toMatchObject({ step: 'validated', validateBody: { scenePath: 'shot A.blend' } });
    } finally {
      claimed.release();
    }
  });

  it('refuses a scene the zip lacks, naming those it holds, and records nothing for it', async () => {
    const recorded = await h.record(await folderZip('shots.zip', SCENES));
    const claimed = await h.lifecycle().claim(recorded);
    try {
      await expect(claimed.chooseScene('shot C.blend')).rejects.toThrow('shots.zip has no scene "shot C.blend". It holds: ');
      expect(claimed.record.validateBody).toBeNull();
    } finally {
      claimed.release();
    }
  });

  it('is settled before recording when the scene is named, with any separator, or asked for', async () => {
    const zip = await folderZip('shots.zip', SCENES);
    expect((await h.record(zip, { scenePath: '.\\shot B.blend' })).validateBody).toEqual({ scenePath: 'shot B.blend' });
    const asked: string[][] = [];
    const chosen = await h.record(zip, { chooseScene: async (scenes) => (asked.push([...scenes].sort()), 'shot A.blend') });
    expect(asked).toEqual([['shot A.blend', 'shot B.blend']]);
    expect(chosen.validateBody).toEqual({ scenePath: 'shot A.blend' });
    expect(scenesToChooseFrom(chosen)).toBeNull();
    const failure = await h.record(zip, { scenePath: 'other.blend' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PreflightError);
    expect((failure as PreflightError).message).toMatch(/^shots\.zip has no scene "other\.blend"\. It holds: .*shot A\.blend/);
    expect(await h.journal.list()).toHaveLength(2);
  });

  it('asks nothing of a zip whose one scene at the top uses libraries below it', async () => {
    const zip = await folderZip('one.zip', { 'main.blend': blendBytes(800), 'lib/props.blend': blendBytes(300) });
    const recorded = await h.record(zip, { chooseScene: async () => Promise.reject(new Error('must not ask')) });
    expect(scenesToChooseFrom(recorded)).toBeNull();
    expect(recorded.validateBody).toBeNull();
  });

  it('refuses a scene named for a .blend file', async () => {
    const dir = await tempDir();
    const blend = await writeScene(dir, 'shot.blend', blendBytes(400));
    await expect(h.record(blend, { scenePath: 'shot.blend' })).rejects.toMatchObject({ code: 'scene-not-in-zip' });
  });
});
