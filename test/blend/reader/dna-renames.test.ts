import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlendFile } from '../../../src/blend/reader/blend-file';
import { renamedField } from '../../../src/blend/reader/dna-renames';
import { describeField, type SdnaStruct } from '../../../src/blend/reader/sdna';
import { LAYOUTS, SyntheticBlend } from '../helpers/synthetic-blend';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-dna-renames-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A struct as a file's SDNA would describe it, with `char[64]` fields of these names. */
function struct(name: string, fields: string[]): SdnaStruct {
  const described = fields.map((f, i) => describeField(`${f}[64]`, 'char', 1, 8, i * 64));
  return { index: 0, name, size: fields.length * 64, fields: described, field: (n) => described.find((f) => f.name === n) };
}

describe('renamedField', () => {
  it('gives the field a file stores under its old name for the name the code uses now', () => {
    expect(renamedField(struct('Library', ['name', 'filepath']), 'filepath', 279)?.offset).toBe(0);
    expect(renamedField(struct('Library', ['name', 'filepath_abs']), 'filepath', 304)?.offset).toBe(0);
    expect(renamedField(struct('StripElem', ['name']), 'filename', 304)?.name).toBe('name');
    expect(renamedField(struct('Mesh', ['vdata', 'ldata']), 'corner_data', 402)?.name).toBe('ldata');
  });

  it('takes the new name only where the file declares no old one and the name meant the same thing in its version', () => {
    expect(renamedField(struct('Library', ['filepath']), 'filepath', 500)?.name).toBe('filepath');
    expect(renamedField(struct('Library', ['filepath']), 'filepath', 279)).toBeUndefined();
    expect(renamedField(struct('Image', ['name']), 'name', 279)?.name).toBe('name');
    expect(renamedField(struct('Image', ['source']), 'filepath', 304)).toBeUndefined();
  });
});

describe('StructView finds renamed fields in every layout', () => {
  it.each(LAYOUTS)('%s', async (label, options) => {
    const blend = new SyntheticBlend(options);
    blend.addLibrary({ name: 'linked_cube.blend', path: '//linked_cube.blend', absolute: '/home/someone/old/linked_cube.blend' });
    blend.addImage({ name: 'Wood', path: '//tex/wood.png' });
    blend.addSound({ name: 'Hit', path: '//audio/hit.wav' });
    blend.addText({ name: 'rig.py', path: '//scripts/rig.py' });
    const path = join(dir, `${label.replace(/\W+/g, '-')}.blend`);
    await writeFile(path, blend.build());
    const file = await BlendFile.open(path);
    try {
      const [library, image, sound, text] = await Promise.all(['LI', 'IM', 'SO', 'TX'].map(async (code) => (await file.struct(file.idBlocks(code)[0]!))!));
      expect(library!.string('filepath')).toBe('//linked_cube.blend');
      expect(library!.location('filepath')).toEqual({ offset: library!.offset + library!.def.field('name')!.offset, size: 1024 });
      const runtime = blend.runtimeCopyField();
      if (runtime) {
        const field = library!.def.field(runtime)!;
        const bytes = await file.source.read(library!.offset + field.offset, field.size);
        expect(bytes.subarray(0, bytes.indexOf(0)).toString()).toBe('/home/someone/old/linked_cube.blend');
      } else {
        expect(library!.def.fields.map((f) => f.name)).toEqual(['id', 'name', 'packedfile', 'runtime']);
      }
      expect(image!.string('filepath')).toBe('//tex/wood.png');
      expect(sound!.string('filepath')).toBe('//audio/hit.wav');
      expect(await file.blockString(file.blockOf(text!, 'filepath'))).toBe('//scripts/rig.py');
    } finally {
      await file.close();
    }
  });
});
