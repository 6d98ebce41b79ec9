import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSampleScene, requireBlender, type SampleSceneOptions } from '../../helpers/blender';
import { runBlender } from '../../../src/render-node/blender/run-blender';
import { analyzeScene } from '../../../src/render-node/blender/analyze';
import { probeBlender, type BlenderInfo } from '../../../src/render-node/blender/probe';
import { readerFactsOf, type SceneReaderFacts } from '../../../src/render-node/blender/analysis-facts';
import { readSceneAnalysis } from '../../../src/render-node/scene/read-analysis';
import { analyzeSceneQuickly } from '../../../src/render-node/scene/scene-analysis';
import { LAYOUTS, SyntheticBlend } from '../../blend/helpers/synthetic-blend';

const blenderPath = requireBlender();

/** The scenes of the analysis tests (test/render-node/blender, confine, flow), by file name. */
const SAMPLES: Record<string, SampleSceneOptions> = {
  'sample.blend': {},
  'frames.blend': { frames: 40 },
  'eevee.blend': { engine: 'BLENDER_EEVEE' },
  'workbench.blend': { engine: 'BLENDER_WORKBENCH' },
  'file-output.blend': { fileOutput: true },
  'compressed.blend': { compress: true },
  'textured.blend': { texture: 'textures/wood.png' },
  'no-texture.blend': { missingTexture: false },
  'absolute.blend': { storedTexture: '/etc/renderdrop-secret.png' },
  'climbing.blend': { storedTexture: '//../outside.png' },
  'backslashes.blend': { storedTexture: '//textures\\wood.png' },
  'dotted.blend': { storedTexture: '//./textures//../textures/wood.png' },
  'root-relative.blend': { storedTexture: '////etc/renderdrop-secret.png' },
  'nocam.blend': { noActiveCamera: true, missingTexture: false },
  'every-sample.blend': { everySample: true },
  'extra.blend': { extraDependencies: true },
};

/** Scenes the reader must leave to Blender, and why. */
const LEFT_TO_BLENDER: Record<string, RegExp> = {
  'extra.blend': /data-blocks|sequence|tiles/,
  'linked.blend': /LI data-blocks|linked/,
  'animated.blend': /animation/,
  'display_xyz.blend': /display XYZ/,
  'backslashes.blend': /backslashes/,
};

async function makeVariants(sample: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const script = join(__dirname, '../../fixtures/blender/make-analysis-variants.py');
  const result = await runBlender({
    blenderPath: blenderPath!,
    args: ['-b', '-Y', '--factory-startup', sample, '--python-exit-code', '1', '--python', script, '--', dir],
    timeoutMs: 120_000,
  });
  if (result.exitCode !== 0) throw new Error(`make-analysis-variants.py failed:\n${result.stderr.slice(-2000)}`);
}

describe.skipIf(!blenderPath)("the .blend reader's analysis against Blender's", () => {
  let work: string;
  let info: BlenderInfo;
  let reader: SceneReaderFacts;
  const scenes: string[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-read-analysis-'));
    info = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    reader = readerFactsOf(info)!;
    await mkdir(join(work, 'textures'), { recursive: true });
    await writeFile(join(work, 'textures', 'wood.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
    for (const [name, options] of Object.entries(SAMPLES)) scenes.push(await makeSampleScene(work, { ...options, name }));
    const library = await makeSampleScene(join(work, 'lib'), { missingTexture: false, name: 'library.blend' });
    scenes.push(await makeSampleScene(work, { missingTexture: false, linkFrom: library, name: 'linked.blend' }));
    await makeVariants(scenes[0]!, join(work, 'variants'));
    for (const name of await readdir(join(work, 'variants'))) scenes.push(join(work, 'variants', name));
  }, 600_000);
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('knows what it needs of this Blender from its probe', () => {
    expect(reader).not.toBeNull();
    expect(reader.facts.engines).toContain('CYCLES');
    expect(reader.facts.formats.map((f) => f.name)).toContain('PNG');
    expect(reader.facts.fileVersion.slice(0, 2)).toEqual(info.versionParts.slice(0, 2));
  });

  it('gives, for every scene it reads, exactly the analysis Blender gives (same fields, same values)', async () => {
    const read: string[] = [];
    const unsure = new Map<string, string>();
    for (const scene of scenes) {
      const name = scene.split('/').pop()!;
      const mine = await readSceneAnalysis(scene, work, reader);
      const blender = await analyzeScene({ blenderPath: blenderPath!, scenePath: scene, sceneRoot: work, nodeBlenderVersion: info.version, timeoutMs: 60_000 });
      if (!mine.ok) {
        unsure.set(name, mine.unsure);
        continue;
      }
      read.push(name);
      expect(mine.analysis, name).toStrictEqual(blender);
    }
    for (const [name, why] of Object.entries(LEFT_TO_BLENDER)) expect(unsure.get(name), name).toMatch(why);
    expect([...unsure.keys()].sort()).toEqual(Object.keys(LEFT_TO_BLENDER).sort());
    expect(read.length).toBe(scenes.length - unsure.size);
  }, 600_000);

  it('reads whether an edit renders through the sequencer as this Blender decides it, warning of no camera only when not', async () => {
    const mutedCounts = info.versionParts[0]! < 5;
    const expected: Record<string, boolean> = { 'sequencer_edit.blend': true, 'sequencer_muted.blend': mutedCounts, 'sequencer_off.blend': false, 'sequencer_empty.blend': false };
    for (const [name, renders] of Object.entries(expected)) {
      const read = await readSceneAnalysis(scenes.find((s) => s.endsWith(`/${name}`))!, work, reader);
      expect(read.ok, name).toBe(true);
      if (!read.ok) continue;
      expect(read.analysis.rendersSequencer, name).toBe(renders);
      expect(read.analysis.warnings.some((w) => w.code === 'no-active-camera'), name).toBe(!renders);
    }
  }, 120_000);

  it('answers through Blender whenever it is unsure, with the analysis Blender gives', async () => {
    const scene = scenes.find((s) => s.endsWith('animated.blend'))!;
    const lines: string[] = [];
    const quick = await analyzeSceneQuickly({ reader, blenderPath: blenderPath!, scenePath: scene, sceneRoot: work, nodeBlenderVersion: info.version, onLine: (l) => lines.push(l) });
    expect(quick.source).toBe('blender');
    expect(quick.unsure).toMatch(/animation/);
    expect(quick.analysis).toStrictEqual(await analyzeScene({ blenderPath: blenderPath!, scenePath: scene, sceneRoot: work, nodeBlenderVersion: info.version }));
    expect(lines.some((l) => l.includes('animation'))).toBe(true);
  }, 120_000);

  it('leaves files of other layouts without a scene to Blender, without throwing', async () => {
    for (const [label, options] of LAYOUTS) {
      const blend = new SyntheticBlend(options);
      blend.addImage({ name: 'Wood', path: '//tex/wood.png' });
      const path = join(work, `layout-${label.replace(/\W+/g, '-')}.blend`);
      await writeFile(path, blend.build());
      const result = await readSceneAnalysis(path, work, reader);
      expect(result.ok, label).toBe(false);
    }
  });
});
