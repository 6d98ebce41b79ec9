import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlendFile } from '../../../src/blend/reader/blend-file';
import { storedSequencer, stripReadsMore } from '../../../src/blend/scene-settings/stored-sequencer';
import type { StoredSequencer } from '../../../src/blend/scene-settings';
import { SyntheticBlend, type SyntheticOptions, type SyntheticStrip } from '../helpers/synthetic-blend';

/** Sequence.type values (DNA_sequence_types.h). */
const IMAGE = 0;
const SOUND = 4;
const COLOR = 28;
const TEXT = 41;
/** RenderData.scemode: the Sequencer option of post-processing. */
const R_DOSEQ = 1;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-stored-sequencer-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The sequencer of the one scene of a synthetic file, as the reader reads it. */
async function readSequencer(scene: { scemode: number; strips?: SyntheticStrip[] }, options: SyntheticOptions = {}): Promise<StoredSequencer> {
  const blend = new SyntheticBlend(options);
  blend.addScene({ name: 'Edit', ...scene });
  const path = join(dir, `scene-${Math.random().toString(36).slice(2)}.blend`);
  await writeFile(path, blend.build());
  const file = await BlendFile.open(path);
  try {
    const view = (await file.struct(file.idBlocks('SC')[0]!))!;
    return await storedSequencer(file, view, file.embedded(view, 'r')!.number('scemode')!);
  } finally {
    await file.close();
  }
}

describe('the video sequencer of a scene, read from the .blend', () => {
  it.each<[string, SyntheticOptions]>([
    ['3.4', { version: 304 }],
    ['5.0', { format: 1 }],
  ])('reads the Sequencer option and each top strip with its type and mute, itself or through its channel (%s layout)', async (_label, options) => {
    const sequencer = await readSequencer(
      {
        scemode: R_DOSEQ | (1 << 6),
        strips: [
          { name: 'Title', type: IMAGE, channel: 2 },
          { name: 'Backdrop', type: COLOR, channel: 1 },
          { name: 'Music', type: SOUND, channel: 3, muted: true },
          { name: 'Note', type: TEXT, channel: 4, channelMuted: true },
        ],
      },
      options,
    );
    expect(sequencer).toEqual({
      enabled: true,
      strips: [
        { type: IMAGE, muted: false },
        { type: COLOR, muted: false },
        { type: SOUND, muted: true },
        { type: TEXT, muted: true },
      ],
    });
  });

  it('reads a scene without a sequence editor, or with the Sequencer option off', async () => {
    expect(await readSequencer({ scemode: R_DOSEQ })).toEqual({ enabled: true, strips: [] });
    expect(await readSequencer({ scemode: 1 << 6, strips: [{ name: 'Backdrop', type: COLOR, channel: 1 }] })).toEqual({ enabled: false, strips: [{ type: COLOR, muted: false }] });
  });

  it('leaves strips that read files, other strips or other scenes to Blender, and takes effects as read', () => {
    expect([0, 1, 2, 3, 4, 6, 7].map((type) => stripReadsMore({ type, muted: false }))).toEqual(Array(7).fill(true));
    expect([8, 25, 28, 31, 41].map((type) => stripReadsMore({ type, muted: false }))).toEqual(Array(5).fill(false));
  });
});
