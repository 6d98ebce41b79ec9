import { describe, expect, it } from 'vitest';
import { reportSeveredAsStored } from '../../../src/render-node/scene/severed-paths';
import { sampleAnalysis } from '../../fixtures/analysis';

describe('reportSeveredAsStored', () => {
  it('names severed libraries and fonts by the paths the scene stored, outside the uploaded files', () => {
    const replacement = '//.renderdrop-not-uploaded/0/lib.blend';
    const analysis = sampleAnalysis({
      dependencies: [
        { kind: 'library', name: 'lib.blend', path: replacement, resolvedPath: null, packed: false, exists: false },
        { kind: 'image', name: 'a.png', path: '//a.png', resolvedPath: 'a.png', packed: false, exists: true },
      ],
      warnings: [
        { code: 'missing-dependency', message: `Library "lib.blend" uses ${replacement}, outside the uploaded files: the node never reads it.`, path: replacement },
        { code: 'newer-blender', message: 'Saved with a newer Blender.' },
      ],
    });
    const severed = [{ holder: '/job/scene.blend', kind: 'library' as const, owner: 'lib.blend', stored: '/home/ana/lib.blend', replacement }];
    const reported = reportSeveredAsStored(analysis, severed);
    expect(reported.dependencies).toEqual([
      { kind: 'library', name: 'lib.blend', path: '/home/ana/lib.blend', resolvedPath: null, packed: false, exists: false },
      analysis.dependencies[1],
    ]);
    expect(reported.warnings).toEqual([
      { code: 'missing-dependency', message: 'Library "lib.blend" uses /home/ana/lib.blend, outside the uploaded files: the node never reads it.', path: '/home/ana/lib.blend' },
      analysis.warnings[1],
    ]);
    expect(reportSeveredAsStored(analysis, [])).toBe(analysis);
  });

  it('knows a severed library of a library by its numbered folder, as Blender shows it relative to the scene', () => {
    const asHolderStores = '//../../.renderdrop-not-uploaded/1/rock.blend';
    const asBlenderShows = '//../../../.renderdrop-not-uploaded/1/rock.blend';
    const analysis = sampleAnalysis({
      dependencies: [
        { kind: 'library', name: 'rock.blend', path: asBlenderShows, resolvedPath: null, packed: false, exists: false },
        { kind: 'library', name: 'other.blend', path: '//.renderdrop-not-uploaded/x/other.blend', resolvedPath: null, packed: false, exists: false },
      ],
      warnings: [{ code: 'missing-dependency', message: `Library "rock.blend" uses ${asBlenderShows}, outside the uploaded files.`, path: asBlenderShows }],
    });
    const severed = [
      { holder: '/job/a/scene.blend', kind: 'library' as const, owner: 'sky.blend', stored: '/srv/sky.blend', replacement: '//../.renderdrop-not-uploaded/0/sky.blend' },
      { holder: '/job/assets/env/forest.blend', kind: 'library' as const, owner: 'rock.blend', stored: '//../../../props/rock.blend', replacement: asHolderStores },
    ];
    const reported = reportSeveredAsStored(analysis, severed);
    expect(reported.dependencies.map((d) => d.path)).toEqual(['//../../../props/rock.blend', '//.renderdrop-not-uploaded/x/other.blend']);
    expect(reported.warnings).toEqual([
      { code: 'missing-dependency', message: 'Library "rock.blend" uses //../../../props/rock.blend, outside the uploaded files.', path: '//../../../props/rock.blend' },
    ]);
  });
});
