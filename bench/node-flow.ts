/**
 * The local render node's overhead: the full flow (upload, validate, render, finalize, download) of a
 * 3-frame sample scene through the node, against a bare `blender -b scene.blend -a` of the same frames
 * measured in the same run. Prints the median times and their ratio.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleScene, requireBlender } from '../test/helpers/blender';
import { startTestNode, uploadBytes, waitForJob } from '../test/helpers/node';
import { probeBlender } from '../src/render-node/blender/probe';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function bareBlender(blender: string, scene: string, outDir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(blender, ['-b', '-Y', '--factory-startup', scene, '-o', join(outDir, 'bare_####'), '-a'], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`blender exited ${code}`))));
  });
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
    const bare: number[] = [];
    const flow: number[] = [];
    const phases: Record<string, number>[] = [];
    try {
      for (let i = 0; i < RUNS; i++) {
        const out = join(work, `bare-${i}`);
        await mkdir(out, { recursive: true });
        bare.push(await bareBlender(blender, scene, out));

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
        flow.push(t3 - t0);
        phases.push({ uploadValidate: t1 - t0, renderFinalize: t2 - t1, download: t3 - t2 });
      }
    } finally {
      await node.stop();
    }
    const bareMs = median(bare);
    const flowMs = median(flow);
    const ph = (k: string) => median(phases.map((p) => p[k]!));
    const rows = [
      ['bare blender -b -a (3 frames)', bareMs],
      ['node: full flow', flowMs],
      ['  upload + validate', ph('uploadValidate')],
      ['  render + finalize', ph('renderFinalize')],
      ['  download 3 frames', ph('download')],
    ] as const;
    console.log(`\nnode flow vs bare Blender (median of ${RUNS}, Blender ${info.version})`);
    for (const [name, ms] of rows) console.log(`${name.padEnd(32)} ${(ms / 1000).toFixed(2).padStart(7)} s`);
    console.log(`ratio full flow / bare Blender: ${(flowMs / bareMs).toFixed(2)}  (overhead ${((flowMs - bareMs) / 1000).toFixed(2)} s)`);
    console.log(`ratio render+finalize / bare Blender: ${(ph('renderFinalize') / bareMs).toFixed(2)}`);
    await mkdir('bench/results', { recursive: true });
    await writeFile(
      'bench/results/node-flow.json',
      JSON.stringify({ runs: RUNS, blender: info.version, bareMs: bare, flowMs: flow, phases, ratio: flowMs / bareMs }, null, 2),
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
