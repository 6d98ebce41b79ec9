import { join } from 'node:path';
import { z } from 'zod';
import { runBlender } from '../../src/render-node/blender/run-blender';
import { ROOT } from './cli';

const SCRIPTS = join(ROOT, 'test', 'fixtures', 'blender');

const corpusSchema = z.object({
  scene: z.string(),
  level1: z.string(),
  level2: z.string(),
  kinds: z.string(),
  loop: z.string(),
  colours: z.record(z.string(), z.tuple([z.number(), z.number(), z.number()])),
});

/** The scenes make-pack-corpus.py writes, and the colour each texture shows. */
export type PackCorpus = z.infer<typeof corpusSchema>;

const pathListSchema = z.object({ file: z.string(), paths: z.array(z.string()), withPacked: z.array(z.string()) });

async function blender(blenderPath: string, args: string[], what: string): Promise<string> {
  const result = await runBlender({ blenderPath, args: ['-b', '-Y', '--factory-startup', ...args], timeoutMs: 170_000 });
  if (result.exitCode !== 0) throw new Error(`${what} failed (exit ${result.exitCode}):\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-3000)}`);
  return result.stdout;
}

/** Build the packing corpus in `root` (an existing folder) with real Blender. */
export async function makePackCorpus(blenderPath: string, root: string): Promise<PackCorpus> {
  const out = await blender(blenderPath, ['--python-exit-code', '1', '--python', join(SCRIPTS, 'make-pack-corpus.py'), '--', root], 'make-pack-corpus.py');
  const line = out.split('\n').find((l) => l.startsWith('CORPUS '));
  if (!line) throw new Error(`make-pack-corpus.py printed no CORPUS line:\n${out.slice(-3000)}`);
  return corpusSchema.parse(JSON.parse(line.slice('CORPUS '.length)));
}

/** What Blender lists as the external paths of each file (`bpy.utils.blend_paths`, local to the file). */
export async function blenderPathLists(blenderPath: string, files: string[]): Promise<Map<string, { paths: string[]; withPacked: string[] }>> {
  const out = await blender(blenderPath, ['--python-exit-code', '1', '--python', join(SCRIPTS, 'blend-paths.py'), '--', ...files], 'blend-paths.py');
  const lists = new Map<string, { paths: string[]; withPacked: string[] }>();
  for (const line of out.split('\n')) {
    if (!line.startsWith('BLENDPATHS ')) continue;
    const parsed = pathListSchema.parse(JSON.parse(line.slice('BLENDPATHS '.length)));
    lists.set(parsed.file, { paths: parsed.paths, withPacked: parsed.withPacked });
  }
  return lists;
}

/** Render frames `first`..`last` of a scene where it is, as Blender alone does, to `<outPrefix>####.png`. */
export async function renderInPlace(blenderPath: string, scene: string, outPrefix: string, first: number, last: number): Promise<void> {
  await blender(blenderPath, [scene, '-o', `${outPrefix}####`, '-s', String(first), '-e', String(last), '-a'], `rendering ${scene}`);
}

const packingSceneSchema = z.object({ scene: z.string(), colours: z.record(z.string(), z.tuple([z.number(), z.number(), z.number()])) });

/** Build the submission packing scene (make-packing-scene.py) in `root`, an existing folder, with real Blender. */
export async function makePackingScene(blenderPath: string, root: string): Promise<z.infer<typeof packingSceneSchema>> {
  const out = await blender(blenderPath, ['--python-exit-code', '1', '--python', join(SCRIPTS, 'make-packing-scene.py'), '--', root], 'make-packing-scene.py');
  const line = out.split('\n').find((l) => l.startsWith('SCENE '));
  if (!line) throw new Error(`make-packing-scene.py printed no SCENE line:\n${out.slice(-3000)}`);
  return packingSceneSchema.parse(JSON.parse(line.slice('SCENE '.length)));
}

const outsideSchema = z.object({ library: z.string(), font: z.string() });

/**
 * Save `scenePath` linking a library and using a font from the folder `elsewhere` (make-outside-scene.py),
 * both stored as absolute paths; `font` is the font file copied there.
 */
export async function makeOutsideScene(blenderPath: string, scenePath: string, elsewhere: string, font: string): Promise<z.infer<typeof outsideSchema>> {
  const out = await blender(blenderPath, ['--python-exit-code', '1', '--python', join(SCRIPTS, 'make-outside-scene.py'), '--', scenePath, elsewhere, font], 'make-outside-scene.py');
  const line = out.split('\n').find((l) => l.startsWith('OUTSIDE '));
  if (!line) throw new Error(`make-outside-scene.py printed no OUTSIDE line:\n${out.slice(-3000)}`);
  return outsideSchema.parse(JSON.parse(line.slice('OUTSIDE '.length)));
}

const sequencerSceneSchema = z.object({ scene: z.string(), title: z.tuple([z.number(), z.number(), z.number()]), clip: z.tuple([z.number(), z.number(), z.number()]) });

/**
 * Build the edit of make-sequencer-scene.py in `root`, an existing folder, with real Blender: no camera,
 * a colour, an image, a movie and a sound strip (or, with `noStrips`, an empty sequence editor).
 */
export async function makeSequencerScene(blenderPath: string, root: string, options: { noStrips?: boolean } = {}): Promise<z.infer<typeof sequencerSceneSchema>> {
  const args = ['--python-exit-code', '1', '--python', join(SCRIPTS, 'make-sequencer-scene.py'), '--', root, ...(options.noStrips ? ['--no-strips'] : [])];
  const out = await blender(blenderPath, args, 'make-sequencer-scene.py');
  const line = out.split('\n').find((l) => l.startsWith('SCENE '));
  if (!line) throw new Error(`make-sequencer-scene.py printed no SCENE line:\n${out.slice(-3000)}`);
  return sequencerSceneSchema.parse(JSON.parse(line.slice('SCENE '.length)));
}
