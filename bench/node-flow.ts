/**
 * The local render node's overhead: the full flow (upload, validate, render, finalize, download) of a
 * 3-frame sample scene through the node, against a bare `blender -b scene.blend -a` of the same frames
 * measured in the same run. The node validates the scene with its .blend reader (no Blender launch);
 * a second node whose probe taught it nothing about its Blender analyses every scene with Blender, as
 * nodes did before. Runs alternate between the three. Prints the median times, ratios and overheads.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleScene, requireBlender } from '../test/helpers/blender';
import { startTestNode, uploadBytes, waitForJob, type TestNode } from '../test/helpers/node';
import { probeBlender } from '../src/render-node/blender/probe';
import { checkNodeFlow, refuseImpossible } from './lib/checks';
import { runBench } from './lib/cleanup';
import { intOption } from './lib/options';
import { median, writeResults } from './lib/report';

const RUNS = intOption('runs', 3);
/** Goal of issue 21: a 3-frame job's whole flow within this much of bare Blender. */
const GOAL_OVERHEAD_MS = 400;
/** Frames of the sample scene (its default). */
const FRAMES = 3;

type Phases = { flow: number; uploadValidate: number; renderFinalize: number; download: number; framesDownloaded: number };
type Timed = Omit<Phases, 'framesDownloaded'>;

async function bareBlender(blender: string, scene: string, outDir: string): Promise<{ ms: number; frames: number }> {
  const ms = await new Promise<number>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(blender, ['-b', '-Y', '--factory-startup', scene, '-o', join(outDir, 'bare_####'), '-a'], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`blender exited ${code}`))));
  });
  return { ms, frames: (await readdir(outDir)).filter((name) => name.startsWith('bare_')).length };
}

async function nodeFlow(node: TestNode, bytes: Buffer, out: string): Promise<Phases> {
  const t0 = performance.now();
  const slug = await uploadBytes(node, 'sample.blend', bytes);
  const job = (await node.call('POST', '/jobs', { slug })).json;
  await node.call('POST', `/jobs/${job.id}/validate`);
  await waitForJob(node, job.id, (j) => j.status === 'validated' || j.status === 'failed');
  const t1 = performance.now();
  await node.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default' } });
  const done = await waitForJob(node, job.id, (j) => ['completed', 'failed', 'canceled'].includes(j.status));
  if (done.status !== 'completed') throw new Error(`render ended ${done.status}: ${JSON.stringify(done.failedReason)}`);
  const t2 = performance.now();
  const downloads = (await node.call('GET', `/jobs/${job.id}/downloads`)).json;
  for (const o of downloads.frameOutputs) await writeFile(join(out, `node-${o.fileName}`), Buffer.from(await (await fetch(o.url)).arrayBuffer()));
  const t3 = performance.now();
  return { flow: t3 - t0, uploadValidate: t1 - t0, renderFinalize: t2 - t1, download: t3 - t2, framesDownloaded: downloads.frameOutputs.length };
}

function report(version: string, bare: number[], reader: Phases[], blender: Phases[]): void {
  const bareMs = median(bare);
  const ph = (runs: Phases[], k: keyof Timed) => median(runs.map((p) => p[k]));
  const sec = (ms: number) => `${(ms / 1000).toFixed(2).padStart(7)} s`;
  console.log(`\nnode flow vs bare Blender (median of ${RUNS}, alternating, Blender ${version})`);
  console.log(`${'bare blender -b -a (3 frames)'.padEnd(40)} ${sec(bareMs)}`);
  for (const [label, runs] of [['node, scene read without Blender', reader], ['node, analysis by Blender (before)', blender]] as const) {
    console.log(`${label.padEnd(40)} ${sec(ph(runs, 'flow'))}`);
    for (const k of ['uploadValidate', 'renderFinalize', 'download'] as const) console.log(`  ${k.padEnd(38)} ${sec(ph(runs, k))}`);
  }
  const overhead = ph(reader, 'flow') - bareMs;
  const before = ph(blender, 'flow') - bareMs;
  console.log(`ratio full flow / bare Blender: ${(ph(reader, 'flow') / bareMs).toFixed(2)}  (overhead ${(overhead / 1000).toFixed(2)} s)`);
  console.log(`ratio full flow with Blender's analysis / bare Blender: ${(ph(blender, 'flow') / bareMs).toFixed(2)}  (overhead ${(before / 1000).toFixed(2)} s)`);
  console.log(`ratio render+finalize / bare Blender: ${(ph(reader, 'renderFinalize') / bareMs).toFixed(2)}`);
  console.log(`goal: whole flow within ${GOAL_OVERHEAD_MS / 1000} s of bare Blender: ${overhead <= GOAL_OVERHEAD_MS ? 'met' : 'not met'}`);
}

async function main(): Promise<void> {
  const blender = requireBlender();
  if (!blender) throw new Error('Blender is needed for this benchmark (install it, or set BLENDER_PATH).');
  const work = await mkdtemp(join(tmpdir(), 'rd-bench-flow-'));
  try {
    const scene = await makeSampleScene(work, {});
    const bytes = await readFile(scene);
    const info = await probeBlender(blender, { timeoutMs: 60_000 });
    const node = await startTestNode({ blender: info, logLevel: 'warn' });
    const blenderNode = await startTestNode({ blender: { ...info, analysisFacts: null }, logLevel: 'warn' });
    const bare: { ms: number; frames: number }[] = [];
    const reader: Phases[] = [];
    const withBlender: Phases[] = [];
    try {
      for (let i = 0; i < RUNS; i++) {
        const out = join(work, `bare-${i}`);
        await mkdir(out, { recursive: true });
        bare.push(await bareBlender(blender, scene, out));
        reader.push(await nodeFlow(node, bytes, out));
        withBlender.push(await nodeFlow(blenderNode, bytes, out));
      }
    } finally {
      await node.stop();
      await blenderNode.stop();
    }
    const flows = [...reader.map((p) => ({ label: 'node, scene read without Blender', ...p })), ...withBlender.map((p) => ({ label: "node, Blender's analysis", ...p }))];
    refuseImpossible('node-flow', checkNodeFlow({ frames: FRAMES, bare, flows }));
    const bareMs = bare.map((b) => b.ms);
    report(info.version, bareMs, reader, withBlender);
    const ratio = median(reader.map((p) => p.flow)) / median(bareMs);
    await writeResults('node-flow', { runs: RUNS, blender: info.version, bareMs, reader, withBlender, ratio });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await runBench(main);
