import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStoredScene } from '../../../src/blend/scene-settings';
import { LAYOUTS, SyntheticBlend } from '../helpers/synthetic-blend';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-stored-scene-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readStoredScene', () => {
  it.each(LAYOUTS)('says it is unsure, without throwing, of a %s file that names no scene', async (label, options) => {
    const blend = new SyntheticBlend(options);
    blend.addImage({ name: 'Wood', path: '//tex/wood.png' });
    const path = join(dir, `${label.replace(/\W+/g, '-')}.blend`);
    await writeFile(path, blend.build());
    const result = await readStoredScene(path);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.unsure).toMatch(/global block|current scene|cannot open/);
  });

  it('says it is unsure of a file it cannot open, or that is cut short', async () => {
    const notes = join(dir, 'notes.blend');
    await writeFile(notes, 'not a blend');
    expect(await readStoredScene(notes)).toMatchObject({ ok: false, unsure: expect.stringMatching(/cannot open/) });
    const whole = new SyntheticBlend({}).build();
    const cut = join(dir, 'cut.blend');
    await writeFile(cut, whole.subarray(0, whole.length - 40));
    expect(await readStoredScene(cut)).toMatchObject({ ok: false });
  });
});
