import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { decodePng, type Pixels } from './png-pixels';

/** Asserts `folder` holds exactly the PNG frames `names` (sorted), each pixel-identical to Blender's in-place render of the same index. */
export async function expectSameFrames(folder: string, names: string[], inPlace: Pixels[]): Promise<void> {
  const frames = (await readdir(folder)).sort();
  expect(frames).toEqual(names);
  for (const [index, frame] of frames.entries()) {
    const rendered = decodePng(await readFile(join(folder, frame)));
    expect([rendered.width, rendered.height, rendered.channels]).toEqual([inPlace[index]!.width, inPlace[index]!.height, inPlace[index]!.channels]);
    expect(rendered.data.equals(inPlace[index]!.data), `${frame} is pixel-identical to Blender in place`).toBe(true);
  }
}
