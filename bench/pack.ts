/**
 * Packing a scene's dependencies into a bundle against `zip -r -0` of the same files, measured in the
 * same run, for each of `--sizes` (default 256M and 1G of textures). Both run as separate processes
 * under /usr/bin/time; Renderdrop's (bench/clients/pack-client.ts) traces the scene and writes the
 * bundle. The textures are PNG and JPEG files (random bytes), which both store without compression,
 * as `zip -0` does. Prints throughput, CPU and peak RSS; writes bench/results/pack.json.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { SyntheticBlend } from '../test/blend/helpers/synthetic-blend';
import { buildClient } from './lib/build-clients';
import { writeRandomFile } from './lib/random-file';
import { onCleanup, runBench, throwIfInterrupted } from './lib/cleanup';
import { assertSucceeded, canMeasureResources, runMeasured, type Measured } from './lib/measure';
import { intOption, sizeLabel, sizesOption } from './lib/options';
import { fixed, loadNote, median, printTable, writeResults } from './lib/report';
import { scratchParent } from './lib/scratch-space';

const MiB = 1024 ** 2;
const MB = 1e6;
const TEXTURE = 16 * MiB;
const sizes = sizesOption('sizes', '256M,1G');
const runs = intOption('runs', 4);

type Tool = 'renderdrop' | 'zip';

interface Sample {
  tool: Tool;
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

function entryCount(path: string): Promise<number> {
  return new Promise((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'));
      resolve(zip.entryCount);
      zip.close();
    }),
  );
}

async function packOnce(tool: Tool, client: string, sceneDir: string, out: string, size: number, run: number, files: number): Promise<Sample> {
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
  return { tool, size, run, seconds: measured.wallSeconds, mibPerSecond: size / MiB / measured.wallSeconds, cpuSeconds: measured.cpuSeconds, maxRssBytes: measured.maxRssBytes, zipBytes };
}

async function main(): Promise<void> {
  if (spawnSync('zip', ['-v']).status !== 0) throw new Error('zip (Info-ZIP) is needed for this benchmark: apt-get install -y zip.');
  if (!canMeasureResources()) console.log('GNU time is missing (/usr/bin/time): CPU and peak RSS are not measured. Install it with `apt-get install -y time`.');
  const client = await buildClient('pack-client');
  const parent = await scratchParent('data-parent', Math.max(...sizes) * 3);
  const work = await mkdtemp(join(parent, 'rd-bench-pack-'));
  onCleanup(() => rm(work, { recursive: true, force: true }));
  console.log(`Pack benchmark: ${sizes.map(sizeLabel).join(', ')} of textures in ${parent}; ${runs} run(s) per size, order alternating. ${loadNote()}`);

  const samples: Sample[] = [];
  for (const size of sizes) {
    const sceneDir = join(work, `size-${size}`, 'scene');
    process.stdout.write(`\nwriting ${sizeLabel(size)} of textures ... `);
    await makeScene(sceneDir, size);
    console.log('done');
    const files = Math.ceil(size / TEXTURE) + 1;
    const out = join(work, `size-${size}`, 'bundle.zip');
    await packOnce('zip', client, sceneDir, out, size, 0, files);
    for (let run = 1; run <= runs; run++) {
      const order: Tool[] = run % 2 === 1 ? ['renderdrop', 'zip'] : ['zip', 'renderdrop'];
      for (const tool of order) {
        throwIfInterrupted();
        const sample = await packOnce(tool, client, sceneDir, out, size, run, files);
        samples.push(sample);
        console.log(`  ${sizeLabel(size)} run ${run} ${tool.padEnd(10)} ${fixed(sample.mibPerSecond, 0).padStart(6)} MiB/s  ${fixed(sample.cpuSeconds)} s CPU  ${fixed(sample.maxRssBytes === null ? null : sample.maxRssBytes / MB, 1)} MB peak RSS`);
      }
    }
    await rm(join(work, `size-${size}`), { recursive: true, force: true });
  }

  const summary = sizes.map((size) => {
    const of = (tool: Tool) => samples.filter((s) => s.size === size && s.tool === tool);
    const mine = of('renderdrop');
    const zip = of('zip');
    const speed = (list: Sample[]) => median(list.map((s) => s.mibPerSecond));
    const rss = (list: Sample[]) => median(list.map((s) => s.maxRssBytes ?? Number.NaN));
    return { size, renderdropMiBps: speed(mine), zipMiBps: speed(zip), ratio: speed(mine) / speed(zip), renderdropRss: rss(mine), zipRss: rss(zip), renderdropCpu: median(mine.map((s) => s.cpuSeconds ?? Number.NaN)), zipCpu: median(zip.map((s) => s.cpuSeconds ?? Number.NaN)) };
  });
  printTable(
    `Packing against zip -r -0 (median of ${runs})`,
    ['size', 'Renderdrop MiB/s', 'zip MiB/s', 'ratio', 'Renderdrop CPU s', 'zip CPU s', 'Renderdrop RSS MB', 'zip RSS MB'],
    summary.map((s) => [sizeLabel(s.size), fixed(s.renderdropMiBps, 0), fixed(s.zipMiBps, 0), fixed(s.ratio), fixed(s.renderdropCpu), fixed(s.zipCpu), fixed(s.renderdropRss / MB, 1), fixed(s.zipRss / MB, 1)]),
  );
  const fastEnough = summary.every((s) => s.ratio >= 0.9);
  const rssValues = summary.map((s) => s.renderdropRss);
  const rssFlat = Math.max(...rssValues) - Math.min(...rssValues) <= 10 * MB;
  console.log(`\nThroughput Renderdrop/zip >= 0.90 for every size: ${fastEnough ? 'met' : 'NOT met'}. Peak RSS the same for every size (within 10 MB): ${rssFlat ? 'met' : 'NOT met'}.`);
  console.log('Renderdrop\'s time is the whole process: Node.js start, tracing the scene and writing the bundle.');
  await writeResults('pack', { config: { sizes, runs, textureBytes: TEXTURE, dataParent: parent, zipCommand: 'zip -r -0 -q <out.zip> scene' }, summary, goals: { throughputAtLeast90PercentOfZip: fastEnough, peakRssFlat: rssFlat }, samples });
}

await runBench(main);
