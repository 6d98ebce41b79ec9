/**
 * Tracing a scene's dependencies without Blender against a Blender launch that prints
 * `bpy.utils.blend_paths` for the same scene, measured in the same run: a small scene with two levels
 * of linked libraries (the test corpus), a scene with a mesh of `--faces` faces, and a scene of `--big`
 * bytes that is mostly packed data (traced in small, constant memory). Prints medians and ratios;
 * writes bench/results/trace.json.
 */
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { requireBlender } from '../test/helpers/blender';
import { makePackCorpus } from '../test/helpers/pack-corpus';
import { buildClient } from './lib/build-clients';
import { checkTrace, refuseImpossible } from './lib/checks';
import { writeRandomFile } from './lib/random-file';
import { onCleanup, runBench, throwIfInterrupted } from './lib/cleanup';
import { assertSucceeded, runMeasured } from './lib/measure';
import { intOption, sizeLabel, sizeOption } from './lib/options';
import { fixed, loadNote, median, printTable, writeResults } from './lib/report';
import { scratchParent } from './lib/scratch-space';

const MB = 1e6;
const runs = intOption('runs', 5);
const big = sizeOption('big', '2G');
const faces = intOption('faces', 1_000_000);
/** Each packed sound stays under Blender's 2 GiB limit for one packed file. */
const SOUND_SIZE = 512 * 1024 ** 2;

interface Row {
  scene: string;
  bytes: number;
  blenderSeconds: number[];
  blenderRss: (number | null)[];
  processSeconds: number[];
  firstTraceSeconds: number[];
  warmTraceSeconds: number[];
  traceRss: number[];
  dependencies: number;
  blends: number;
}


async function makeBigScene(blender: string, dir: string): Promise<string> {
  const sounds: string[] = [];
  for (let i = 0; i * SOUND_SIZE < big; i++) {
    const path = join(dir, `noise-${i}.wav`);
    await writeRandomFile(path, Math.min(SOUND_SIZE, big - i * SOUND_SIZE));
    sounds.push(path);
  }
  const out = join(dir, 'packed.blend');
  const made = await runMeasured(blender, ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python', join(import.meta.dirname, 'lib', 'make-packed-scene.py'), '--', out, ...sounds]);
  assertSucceeded('make-packed-scene.py', made);
  for (const sound of sounds) await rm(sound);
  return out;
}

async function makeHeavyScene(blender: string, dir: string): Promise<string> {
  const out = join(dir, 'heavy.blend');
  const made = await runMeasured(blender, ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python', join(import.meta.dirname, 'lib', 'make-heavy-scene.py'), '--', out, String(faces)]);
  assertSucceeded('make-heavy-scene.py', made);
  return out;
}

async function measure(blender: string, client: string, name: string, scene: string): Promise<Row> {
  const row: Row = { scene: name, bytes: (await stat(scene)).size, blenderSeconds: [], blenderRss: [], processSeconds: [], firstTraceSeconds: [], warmTraceSeconds: [], traceRss: [], dependencies: 0, blends: 0 };
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? ['renderdrop', 'blender'] : ['blender', 'renderdrop'];
    for (const who of order) {
      throwIfInterrupted();
      if (who === 'blender') {
        const measured = await runMeasured(blender, ['-b', '-Y', '--factory-startup', scene, '--python-expr', 'import bpy; print("PATHS", bpy.utils.blend_paths())']);
        assertSucceeded('blender blend_paths', measured);
        if (!measured.stdout.includes('PATHS [')) throw new Error('Blender printed no paths');
        row.blenderSeconds.push(measured.wallSeconds);
        row.blenderRss.push(measured.maxRssBytes);
      } else {
        const measured = await runMeasured(process.execPath, [client, scene, '6']);
        assertSucceeded('the trace client', measured);
        const result = JSON.parse(measured.stdout) as { times: number[]; dependencies: number; blends: number; maxRssBytes: number };
        row.processSeconds.push(measured.wallSeconds);
        row.firstTraceSeconds.push(result.times[0]!);
        row.warmTraceSeconds.push(median(result.times.slice(1)));
        row.traceRss.push(measured.maxRssBytes ?? result.maxRssBytes);
        row.dependencies = result.dependencies;
        row.blends = result.blends;
      }
    }
  }
  refuseImpossible('trace', checkTrace({ runs, rows: [row] }));
  console.log(`  ${name}: Blender ${fixed(median(row.blenderSeconds), 3)} s, Renderdrop ${fixed(median(row.firstTraceSeconds) * 1000, 1)} ms (process ${fixed(median(row.processSeconds), 3)} s)`);
  return row;
}

async function main(): Promise<void> {
  const blender = requireBlender();
  if (!blender) throw new Error('Blender is needed for this benchmark (install it, or set BLENDER_PATH).');
  console.log(`Trace benchmark: ${runs} run(s) per scene, order alternating; packed scene of ${sizeLabel(big)}. ${loadNote()}`);
  const client = await buildClient('trace-client');
  const work = await mkdtemp(join(await scratchParent('data-parent', big * 2), 'rd-bench-trace-'));
  onCleanup(() => rm(work, { recursive: true, force: true }));
  await mkdir(join(work, 'corpus'));
  const corpus = await makePackCorpus(blender, join(work, 'corpus'));
  process.stdout.write(`making a ${sizeLabel(big)} scene of packed data ... `);
  const packed = await makeBigScene(blender, work);
  console.log('done');
  const heavy = await makeHeavyScene(blender, work);

  const rows = [
    await measure(blender, client, 'small scene, 2 levels of libraries', corpus.scene),
    await measure(blender, client, `mesh of ${faces.toLocaleString('en')} faces`, heavy),
    await measure(blender, client, `${sizeLabel(big)} of packed data`, packed),
  ];
  const ratio = (row: Row, mine: number[]) => median(row.blenderSeconds) / median(mine);
  printTable(
    `Tracing against Blender printing bpy.utils.blend_paths (median of ${runs})`,
    ['scene', 'file', 'deps', 'Blender s', 'trace ms', 'warm ms', 'process s', 'x (trace)', 'x (warm)', 'x (process)', 'Blender MB', 'trace MB'],
    rows.map((row) => [
      row.scene,
      sizeLabel(row.bytes),
      String(row.dependencies),
      fixed(median(row.blenderSeconds), 3),
      fixed(median(row.firstTraceSeconds) * 1000, 1),
      fixed(median(row.warmTraceSeconds) * 1000, 1),
      fixed(median(row.processSeconds), 3),
      fixed(ratio(row, row.firstTraceSeconds), 1),
      fixed(ratio(row, row.warmTraceSeconds), 1),
      fixed(ratio(row, row.processSeconds), 1),
      fixed(median(row.blenderRss.filter((x): x is number => x !== null)) / MB, 0),
      fixed(median(row.traceRss) / MB, 0),
    ]),
  );
  console.log(
    '\n"trace ms": the first trace in a fresh process (what the app and the CLI do once per scene); "warm ms": later traces in the same process;' +
      '\n"process s": a whole Node.js process that starts, traces once and exits. Goal: at least 20x faster than Blender.',
  );
  console.log('');
  const goals = Object.fromEntries(rows.map((row) => [row.scene, { firstTrace: ratio(row, row.firstTraceSeconds) >= 20, warmTrace: ratio(row, row.warmTraceSeconds) >= 20 }]));
  for (const row of rows) {
    console.log(`${row.scene}: first trace ${fixed(ratio(row, row.firstTraceSeconds), 1)}x, warm ${fixed(ratio(row, row.warmTraceSeconds), 1)}x faster than Blender (goal 20x: ${goals[row.scene]!.firstTrace ? 'met' : 'NOT met'} first, ${goals[row.scene]!.warmTrace ? 'met' : 'NOT met'} warm).`);
  }
  console.log(`Peak RSS of the trace process: ${rows.map((r) => `${fixed(median(r.traceRss) / MB, 0)} MB`).join(', ')} (${rows.map((r) => sizeLabel(r.bytes)).join(', ')} files).`);
  await writeResults('trace', { runs, bigBytes: big, faces, rows, goals });
}

await runBench(main);
