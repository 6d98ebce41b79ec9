import { describe, expect, it } from 'vitest';
import { blenderPlaces } from '../../src/core/addon/blender-candidates';
import { blenderPlacesOf } from '../../src/node-common/blender-places';
import { candidatePaths } from '../../src/render-node/blender/locate';

const folders: Record<string, string[]> = { '/Applications': ['Blender 4.2.app', 'Blender 3.6.app', 'Blender.app', 'Notes.app'], '/opt': ['blender-4.1', 'blender-4.3'] };
const listDir = (dir: string) => folders[dir] ?? [];

describe('one Blender locator', () => {
  it('lists BLENDER_PATH, PATH, versioned macOS bundles and Steam, for the node and the add-on installer alike', () => {
    const env = { BLENDER_PATH: '/work/blender-5', PATH: '/usr/local/bin', HOME: '/Users/ann' };
    const places = blenderPlacesOf({ platform: 'darwin', env, listDir }).map((p) => p.path);
    expect(places.slice(0, 5)).toEqual([
      '/work/blender-5',
      '/usr/local/bin/blender',
      '/Applications/Blender.app/Contents/MacOS/Blender',
      '/Applications/Blender 4.2.app/Contents/MacOS/Blender',
      '/Applications/Blender 3.6.app/Contents/MacOS/Blender',
    ]);
    expect(places).toContain('/Users/ann/Library/Application Support/Steam/steamapps/common/Blender/Blender.app/Contents/MacOS/Blender');
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      const node = candidatePaths(platform, env, { listDir }).map((c) => c.path);
      const installer = blenderPlaces({ platform, env, listDir }).map((c) => c.path);
      expect(installer).toEqual(node);
    }
    expect(blenderPlaces({ platform: 'linux', env, listDir, configured: ['/srv/blender'] }).slice(0, 2)).toEqual([
      { path: '/srv/blender', origin: 'configured' },
      { path: '/work/blender-5', origin: 'configured' },
    ]);
  });
});
