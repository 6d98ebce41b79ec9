import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlendFile } from '../../src/blend/reader/blend-file';
import { collectReferences } from '../../src/blend/trace/collect-references';
import { requireBlender } from '../helpers/blender';
import { blenderPathLists } from '../helpers/pack-corpus';
import { LAYOUTS, SyntheticBlend } from './helpers/synthetic-blend';

const blenderPath = requireBlender();

/**
 * The layouts Blender 3.4 and later open: little-endian (Blender 4 reads no other) with the 12-byte
 * header (the 17-byte one is Blender 5.0's).
 */
const OPENED = LAYOUTS.filter(([, options]) => options.format !== 1 && options.littleEndian !== false);

describe.skipIf(!blenderPath)('Blender reads the synthetic files of older layouts as the tracer does', () => {
  let work: string;
  const files = new Map<string, string>();

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-old-layouts-'));
    for (const [label, options] of OPENED) {
      const blend = new SyntheticBlend(options);
      blend.addLibrary({ name: 'linked_cube.blend', path: '//linked_cube.blend', absolute: '/home/someone/old-project/linked_cube.blend' });
      blend.addImage({ name: 'Wood', path: '//tex/wood.png' });
      blend.addImage({ name: 'Tiles', path: '//udim/t.<UDIM>.png', source: 6, tiles: [1001, 1002] });
      blend.addSound({ name: 'Hit', path: '//audio/hit.wav' });
      blend.addText({ name: 'rig.py', path: '//scripts/rig.py' });
      const path = join(work, `${label.replace(/\W+/g, '-')}.blend`);
      await writeFile(path, blend.build());
      files.set(label, path);
    }
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('lists, for a file of every layout, exactly the paths Blender lists for it', async () => {
    const lists = await blenderPathLists(blenderPath!, [...files.values()]);
    for (const [label, path] of files) {
      const file = await BlendFile.open(path);
      const traced = (await collectReferences(file)).map((r) => r.stored).sort();
      await file.close();
      expect(traced, label).toContain('//linked_cube.blend');
      expect(traced, label).toEqual(lists.get(path)?.paths);
    }
  });
});
