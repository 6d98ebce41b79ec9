/**
 * Packing a scene's dependencies into a bundle against `zip -r -0` of the same files, measured in the
 * same run, for each of `--sizes` (default 256M and 1G of textures), and for a scene whose .blend holds
 * `--packed` (default 1G) of packed images (made with Blender; `--packed=0` leaves it out). Both run as
 * separate processes under /usr/bin/time; Renderdrop's (bench/clients/pack-client.ts) traces the scene
 * and writes the bundle. The textures and packed images are random bytes, which deflate cannot shrink:
 * Renderdrop should store them, as `zip -0` does. Prints throughput, CPU and peak RSS; writes
 * bench/results/pack.json.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { SyntheticBlend } from '../test/blend/helpers/synthetic-blend';
import { requireBlender } from '../test/helpers/blender';
import { buildClient } from './lib/build-clients';
import { checkPack, refuseImpossible } from './lib/checks';
import { writeRandomFile } from './lib/random-file';
import { onCleanup, runBench, throwIfInterrupted } from './lib/cleanup';
import { assertSucceeded, canMeasureResources, runMeasured, type Measured } from './lib/measure';
import { intOption, option, parseSize, sizeLabel, sizesOption } from './lib/options';
import { fixed, loadNote, median, printTable, writeResults } from './lib/report';
import { scratchParent } from './lib/scratch-space';

const MiB = 1024 ** 2;
const MB = 1e6;
const TEXTURE = 16 * MiB;
const sizes = sizesOption('sizes', '256M,1G');
const runs = intOption('runs', 4);
const packedText = option('packed', '1G');
const packed = packedText === '0' ? 0 : parseSize(packedText);
/** One packed image: an 8k PNG is tens of MiB; Blender packs each file whole. */
const PACKED_IMAGE = 64 * MiB;

type Tool = 'renderdrop' | 'zip';
type Kind = 'textures' | 'packed';

interface Case {
  kind: Kind;
  size: number;
  label: string;
}

interface Sample {
  tool: Tool;
  case: string;
  size: number;
  run: number;
  seconds: number;
  mibPerSecond: number;
  cpuSeconds: number | null;
  maxRssBytes: number | null;
  zipBytes: number;
}


/** A scene folder: shot.blend pointing at `size` bytes of textures in textures/. */
async function makeScene(dir: string, size: number): Promise<string> {
  const blend = new SyntheticBlend();
  await mkdir(join(dir, 'textures'), { recursive: true });
  for (let i = 0; i * TEXTURE < size; i++) {
    const name = `tex_${String(i).padStart(3, '0')}.${i % 4 === 3 ? 'jpg' : 'png'}`;
    await writeRandomFile(join(dir, 'textures', name), Math.min(TEXTURE, size - i * TEXTURE));
    blend.addImage({ name, path: `//textures/${name}` });
  }
  const scene = join(dir, 'shot.blend');
  await writeFile(scene, blend.build());
  return scene;
}

/** A scene folder: shot.blend holding `size` bytes of images (random bytes) packed into it by Blender. */
async function makePackedScene(blender: string, dir: string, size: number): Promise<string> {
  await mkdir(dir, { recursive: true });
  const images: string[] = [];
  for (let i = 0; i * PACKED_IMAGE < size; i++) {
    const path = join(dir, '..', `image_${String(i).padStart(3, '0')}.png`);
    await writeRandomFile(path, Math.min(PACKED_IMAGE, size - i * PACKED_IMAGE));
    images.push(path);
  }
  const scene = join(dir, 'shot.blend');
  const made = await runMeasured(blender, ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python', join(import.meta.dirname, 'lib', 'make-packed-images-scene.py'), '--', scene, ...images]);
  assertSucceeded('make-packed-images-scene.py', made);
  for (const image of images) await rm(image);
  return scene;
}

function entryCount(path: string): Promise<number> {
  return new Promise((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'));
      resolve(zip.entryCount);
      zip.close();
    }),
  );
}

async function packOnce(tool: Tool, client: string, sceneDir: string, out: string, scene: Case, run: number, files: number): Promise<Sample> {
  const { size } = scene;
  await rm(out, { force: true });
  spawnSync('sync');
  let measured: Measured;
  if (tool === 'renderdrop') {
    measured = await runMeasured(process.execPath, [client, join(sceneDir, 'shot.blend'), out]);
    assertSucceeded('the pack client', measured);
  } else {
    measured = await runMeasured('zip', ['-r', '-0', '-q', out, 'scene'], { cwd: join(sceneDir, '..') });
    assertSucceeded('zip -r -0', measured);
  }
  const zipBytes = (await stat(out)).size;
  const entries = await entryCount(out);
  if (entries < files) throw new Error(`${tool} wrote ${entries} entries, expected at least ${files}`);
  await rm(out, { force: true });
  return { tool, case: scene.label, size, run, seconds: measured.wallSeconds, mibPerSecond: size / MiB / measured.wallSeconds, cpuSeconds: measured.cpuSeconds, maxRssBytes: measured.maxRssBytes, zipBytes };
}

async function runCase(client: string, work: string, blender: string | null, scene: Case, samples: Sample[]): Promise<void> {
  const dir = join(work, `${scene.kind}-${scene.size}`);
  const sceneDir = join(dir, 'scene');
  process.stdout.write(`\nwriting ${scene.label} ... `);
  if (scene.kind === 'textures') await makeScene(sceneDir, scene.size);
  else await makePackedScene(blender!, sceneDir, scene.size);
  console.log('done');
  const files = scene.kind === 'textures' ? Math.ceil(scene.size / TEXTURE) + 1 : 1;
  const out = join(dir, 'bundle.zip');
  await packOnce('zip', client, sceneDir, out, scene, 0, files);
  for (let run = 1; run <= runs; run++) {
    const order: Tool[] = run % 2 === 1 ? ['renderdrop', 'zip'] : ['zip', 'renderdrop'];
    for (const tool of order) {
      throwIfInterrupted();
      const sample = await packOnce(tool, client, sceneDir, out, scene, run, files);
      refuseImpossible('pack', checkPack({ runs, cases: [], samples: [sample] }));
      samples.push(sample);
      console.log(`  ${scene.label} run ${run} ${tool.padEnd(10)} ${fixed(sample.mibPerSecond, 0).padStart(6)} MiB/s  ${fixed(sample.seconds, 2)} s  ${fixed(sample.cpuSeconds)} s CPU  ${fixed(sample.maxRssBytes === null ? null : sample.maxRssBytes / MB, 1)} MB peak RSS  ${fixed(sample.zipBytes / MiB, 1)} MiB zip`);
    }
  }
  await rm(dir, { recursive: true, force: true });
}

function summarize(cases: Case[], samples: Sample[]) {
  return cases.map((scene) => {
    const of = (tool: Tool) => samples.filter((s) => s.case === scene.label && s.tool === tool);
    const mine = of('renderdrop');
    const zip = of('zip');
    const speed = (list: Sample[]) => median(list.map((s) => s.mibPerSecond));
    const rss = (list: Sample[]) => median(list.map((s) => s.maxRssBytes ?? Number.NaN));
    const bytes = (list: Sample[]) => median(list.map((s) => s.zipBytes));
    return { case: scene.label, kind: scene.kind, size: scene.size, renderdropMiBps: speed(mine), zipMiBps: speed(zip), ratio: speed(mine) / speed(zip), renderdropSeconds: median(mine.map((s) => s.seconds)), zipSeconds: median(zip.map((s) => s.seconds)), renderdropRss: rss(mine), zipRss: rss(zip), renderdropCpu: median(mine.map((s) => s.cpuSeconds ?? Number.NaN)), zipCpu: median(zip.map((s) => s.cpuSeconds ?? Number.NaN)), renderdropZipBytes: bytes(mine), zipZipBytes: bytes(zip) };
  });
}

async function main(): Promise<void> {
  if (spawnSync('zip', ['-v']).status !== 0) throw new Error('zip (Info-ZIP) is needed for this benchmark: apt-get install -y zip.');
  if (!canMeasureResources()) console.log('GNU time is missing (/usr/bin/time): CPU and peak RSS are not measured. Install it with `apt-get install -y time`.');
  const blender = packed > 0 ? requireBlender() : null;
  if (packed > 0 && !blender) throw new Error('Blender is needed to make the packed-images scene (install it, or set BLENDER_PATH, or pass --packed=0).');
  const cases: Case[] = [
    ...sizes.map((size): Case => ({ kind: 'textures', size, label: `${sizeLabel(size)} of textures` })),
    ...(packed > 0 ? [{ kind: 'packed', size: packed, label: `${sizeLabel(packed)} of packed images` } satisfies Case] : []),
  ];
  const client = await buildClient('pack-client');
  const parent = await scratchParent('data-parent', Math.max(...cases.map((c) => c.size)) * 3);
  const work = await mkdtemp(join(parent, 'rd-bench-pack-'));
  onCleanup(() => rm(work, { recursive: true, force: true }));
  console.log(`Pack benchmark: ${cases.map((c) => c.label).join(', ')} in ${parent}; ${runs} run(s) per scene, order alternating. ${loadNote()}`);

  const samples: Sample[] = [];
  for (const scene of cases) await runCase(client, work, blender, scene, samples);

  const summary = summarize(cases, samples);
  refuseImpossible('pack', checkPack({ runs, cases: cases.map((c) => c.label), samples, summary }));
  printTable(
    `Packing against zip -r -0 (median of ${runs})`,
    ['scene', 'Renderdrop s', 'zip s', 'Renderdrop MiB/s', 'zip MiB/s', 'ratio', 'Renderdrop CPU s', 'zip CPU s', 'Renderdrop RSS MB', 'zip RSS MB', 'Renderdrop zip MiB', 'zip -0 MiB'],
    summary.map((s) => [s.case, fixed(s.renderdropSeconds, 2), fixed(s.zipSeconds, 2), fixed(s.renderdropMiBps, 0), fixed(s.zipMiBps, 0), fixed(s.ratio), fixed(s.renderdropCpu), fixed(s.zipCpu), fixed(s.renderdropRss / MB, 1), fixed(s.zipRss / MB, 1), fixed(s.renderdropZipBytes / MiB, 1), fixed(s.zipZipBytes / MiB, 1)]),
  );
  const fastEnough = summary.every((s) => s.ratio >= 0.9);
  const rssValues = summary.map((s) => s.renderdropRss);
  const rssFlat = Math.max(...rssValues) - Math.min(...rssValues) <= 10 * MB;
  console.log(`\nThroughput Renderdrop/zip >= 0.90 for every scene (textures and packed images): ${fastEnough ? 'met' : 'NOT met'}. Peak RSS the same for every scene (within 10 MB): ${rssFlat ? 'met' : 'NOT met'}.`);
  console.log('Renderdrop\'s time is the whole process: Node.js start, tracing the scene and writing the bundle.');
  await writeResults('pack', { config: { sizes, packed, runs, textureBytes: TEXTURE, packedImageBytes: PACKED_IMAGE, dataParent: parent, zipCommand: 'zip -r -0 -q <out.zip> scene' }, summary, goals: { throughputAtLeast90PercentOfZip: fastEnough, peakRssFlat: rssFlat }, samples });
}

await runBench(main);
