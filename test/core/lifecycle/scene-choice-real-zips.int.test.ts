import { describe } from 'vitest';
import { hasZipTool, realZip, type ZipTool } from '../../helpers/real-zip';
import { sceneChoiceHarness, severalScenesCases } from './helpers/several-scenes';

const h = sceneChoiceHarness();

for (const tool of ['zip', '7z'] as ZipTool[]) {
  describe.skipIf(!hasZipTool(tool))(`a ${tool} zip holding several scenes`, () => {
    severalScenesCases(h, (name, files) => realZip(tool, name, files));
  });
}
