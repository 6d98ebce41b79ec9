/**
 * What a PNG preview of every frame costs a render: the same frames of the sample scene rendered by
 * the node's render prelude with and without `previewDir`, alternating, in the same run. Prints the
 * median times and their ratio. Options: --runs=3 --frames=6 --format=OPEN_EXR --width=1920 --height=1080.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startRender, type BlenderRenderPlan } from '../src/render-node/blender/render';
import { makeSampleScene, requireBlender } from '../test/helpers/blender';
import { checkFramePreviews, refuseImpossible, type FramePreviewsFigures } from './lib/checks';
import { runBench } from './lib/cleanup';
import { intOption, option } from './lib/options';
import { loadNote, median, writeResults } from './lib/report';

const RUNS = intOption('runs', 3);
const FRAMES = intOption('frames', 6);
const FORMAT = option('format', 'OPEN_EXR');
const WIDTH = intOption('width', 1920);
const HEIGHT = intOption('height', 1080);

type Render = FramePreviewsFigures['renders'][number];

async function timedRender(blender: string, scene: string, outputDir: string, previewDir: string | null): Promise<Render> {
  const plan: BlenderRenderPlan = {
    frames: Array.from({ length: FRAMES }, (_, i) => i + 1),
    outputDir,
    outputFormat: FORMAT,
    resolution: [WIDTH, HEIGHT],
    resolutionPercentage: 100,
    samples: 1,
    previewDir,
  };
  const started = performance.now();
  const result = await startRender({ blenderPath: blender, scenePath: scene, sceneRoot: dirname(scene), plan }).done;
  const ms = performance.now() - started;
  if (result.exitCode !== 0) throw new Error(`render failed: ${result.error ?? result.stderrTail}`);
  const previewsWritten = previewDir === null ? 0 : (await readdir(previewDir).catch(() => [])).filter((name) => name.endsWith('.png')).length;
  return { previews: previewDir !== null, ms, framesWritten: result.framesWritten.length, previewsWritten };
}

async function main(): Promise<void> {
  const blender = requireBlender();
  if (!blender) throw new Error('Blender is needed for this benchmark (install it, or set BLENDER_PATH).');
  const work = await mkdtemp(join(tmpdir(), 'rd-bench-previews-'));
  try {
    const scene = await makeSampleScene(work, { frames: FRAMES, missingTexture: false });
    const renders: Render[] = [];
    for (let i = 0; i < RUNS; i++) {
      renders.push(await timedRender(blender, scene, join(work, `plain-${i}`), null));
      renders.push(await timedRender(blender, scene, join(work, `previews-${i}`), join(work, `previews-${i}`, 'previews')));
    }
    refuseImpossible('frame-previews', checkFramePreviews({ frames: FRAMES, renders }));
    const plain = renders.filter((r) => !r.previews).map((r) => r.ms);
    const withPreviews = renders.filter((r) => r.previews).map((r) => r.ms);
    const a = median(plain);
    const b = median(withPreviews);
    console.log(`\nframe previews: ${FRAMES} frames of ${WIDTH}x${HEIGHT} ${FORMAT}, median of ${RUNS}`);
    console.log(`${'render without previews'.padEnd(30)} ${(a / 1000).toFixed(2).padStart(7)} s`);
    console.log(`${'render with a preview a frame'.padEnd(30)} ${(b / 1000).toFixed(2).padStart(7)} s`);
    console.log(`ratio with / without: ${(b / a).toFixed(3)}  (${((b - a) / FRAMES).toFixed(0)} ms a frame)`);
    console.log(loadNote());
    await writeResults('frame-previews', {
      config: { runs: RUNS, frames: FRAMES, format: FORMAT, width: WIDTH, height: HEIGHT },
      samplesMs: { plain, withPreviews },
      medianMs: { plain: a, withPreviews: b },
      ratio: b / a,
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await runBench(main);
