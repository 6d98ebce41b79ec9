import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readScenePython } from '../../../src/blend/scene-python';
import { blendersUnderTest } from '../../helpers/blenders';
import { makePythonScenes } from '../../helpers/python-scenes';

const work = mkdtemp(join(tmpdir(), 'rd-scene-python-'));
afterAll(async () => rm(await work, { recursive: true, force: true }));

for (const blender of blendersUnderTest()) {
  describe.skipIf(!blender.path)(`what needs Python in scenes saved by Blender ${blender.series}${blender.missing ? ` (${blender.missing})` : ''}`, () => {
    it('finds the Python driver and the registered text block, and nothing in scenes with simple drivers or none', async () => {
      const root = join(await work, blender.series);
      await mkdir(root);
      const scenes = await makePythonScenes(blender.path!, root);
      expect(await readScenePython(scenes.wobble)).toEqual({
        drivers: [{ owner: 'Cube', property: 'Location Z', expression: 'wobble(frame)' }],
        modules: [{ name: 'rig_wobble.py' }],
      });
      expect(await readScenePython(scenes.simple)).toEqual({ drivers: [], modules: [] });
      expect(await readScenePython(scenes.plain)).toEqual({ drivers: [], modules: [] });
    }, 180_000);
  });
}
