import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildClient } from './lib/build-clients';
import { startBenchNode, type BenchNode } from './lib/bench-node';
import { checkDownload, refuseImpossible } from './lib/checks';
import { onCleanup, runBench, throwIfInterrupted } from './lib/cleanup';
import { assertSucceeded, canMeasureResources, runMeasured, type Measured } from './lib/measure';
import { intOption, sizeLabel, sizeOption } from './lib/options';
import { fixed, loadNote, median, printTable, writeResults } from './lib/report';
import { RequestCounter } from './lib/request-counter';
import { scratchParent } from './lib/scratch-space';
import { putJobInStatus } from '../test/helpers/job-status';

const MiB = 1024 ** 2;
const MB = 1e6;

const fileCount = intOption('files', 500);
const fileSize = sizeOption('file-size', '1M');
const concurrency = intOption('concurrency', 8);
const runs = intOption('runs', 3);

type VariantId = 'renderdrop' | 'xargs-curl' | 'curl-sequential' | 'curl-parallel';

interface Variant {
  id: VariantId;
  label: string;
  /** Requests it makes to the node: one GET per file, and Renderdrop's GET /jobs/{id}/downloads. */
  requests: number;
  run: (dest: string) => Promise<Measured>;
}

interface Sample {
  variant: VariantId;
  run: number;
  position: number;
  wallSeconds: number;
  cpuSeconds: number | null;
  maxRssBytes: number | null;
  /** Renderdrop only: time inside the process, from the /downloads call to the last rename. */
  innerSeconds: number | null;
  /** CPU the render node (this process) spent serving the run. */
  nodeCpuSeconds: number;
  /** Requests the node received during the run. */
  requests: number;
  /** Requests the client makes for the job's files. */
  requestsMade: number;
}

interface Output {
  fileName: string;
  url: string;
}

/**
 * A completed job on the node with `count` frames of `size` bytes, made with the node's own repos so
 * `GET /jobs/{id}/downloads` signs them like any rendered output. Returns the job id and the digest
 * of each frame.
 */
async function completedJob(bench: BenchNode, count: number, size: number): Promise<{ jobId: string; digests: Map<string, string> }> {
  const { jobs, storage } = bench.test.node.ctx;
  const job = jobs.create({
    userId: 'bench',
    uploadSlug: 'bench-download',
    sceneFile: { fileName: 'bench.blend', fileType: 'blend', size: 1, slug: 'bench-download', scenePath: 'bench.blend' },
  });
  const framesDir = storage.framesDir(job.id);
  await mkdir(framesDir, { recursive: true });
  const block = randomBytes(size);
  const digests = new Map<string, string>();
  for (let frame = 1; frame <= count; frame++) {
    throwIfInterrupted();
    const fileName = `frame_${String(frame).padStart(4, '0')}.png`;
    block.writeUInt32BE(frame, 0);
    const path = join(framesDir, fileName);
    await writeFile(path, block);
    digests.set(fileName, createHash('sha256').update(block).digest('hex'));
    jobs.recordFrame(job.id, frame, path, 0.5);
  }
  const done = putJobInStatus(bench.test.node.ctx, job.id, 'completed', {
    totalFrames: count,
    normalizedSeconds: count * 0.5,
    completedAt: new Date().toISOString(),
  });
  if (!done) throw new Error('could not complete the benchmark job');
  return { jobId: job.id, digests };
}

/** Checks that `dest` holds exactly the expected files, complete, with the right bytes. */
async function verify(what: string, dest: string, digests: Map<string, string>): Promise<void> {
  const names = (await readdir(dest)).sort();
  const expected = [...digests.keys()].sort();
  if (names.length !== expected.length || names.some((name, i) => name !== expected[i])) {
    throw new Error(`${what}: ${names.length} files in the folder, expected ${expected.length} (first: ${names.slice(0, 3).join(', ')})`);
  }
  for (const name of names) {
    const size = (await stat(join(dest, name))).size;
    if (size !== fileSize) throw new Error(`${what}: ${name} has ${size} bytes, expected ${fileSize}`);
  }
  for (let i = 0; i < Math.min(16, names.length); i++) {
    const name = names[Math.floor(Math.random() * names.length)]!;
    const digest = createHash('sha256').update(await readFile(join(dest, name))).digest('hex');
    if (digest !== digests.get(name)) throw new Error(`${what}: ${name} differs from the node's file`);
  }
}

async function main(): Promise<void> {
  if (!canMeasureResources()) {
    console.log('GNU time is missing (/usr/bin/time): CPU and peak RSS are not measured. Install it with `apt-get install -y time`.');
  }
  const total = fileCount * fileSize;
  console.log(`Download benchmark: ${fileCount} outputs of ${sizeLabel(fileSize)} (${sizeLabel(total)}), concurrency ${concurrency}, ${runs} run(s), order rotating.`);
  const downloadClient = await buildClient('download-client');
  const dataParent = await scratchParent('node-data-parent', total);
  const destParent = await scratchParent('dest-parent', total * 2);
  console.log(`The node's data folder is under ${dataParent}, downloads go under ${destParent}. ${loadNote()}`);
  const bench = await startBenchNode(dataParent);
  const counter = new RequestCounter(bench.test.node.app.server);
  const work = await mkdtemp(join(destParent, 'rd-bench-download-'));
  onCleanup(() => rm(work, { recursive: true, force: true }));

  const { jobId, digests } = await completedJob(bench, fileCount, fileSize);
  const downloads = await bench.client.getDownloads(jobId);
  const outputs: Output[] = downloads.frameOutputs.map((o) => ({ fileName: o.fileName, url: o.url }));
  if (outputs.length !== fileCount) throw new Error(`GET /jobs/{id}/downloads listed ${outputs.length} frameOutputs, expected ${fileCount}`);

  const xargsList = join(work, 'xargs-list');
  await writeFile(xargsList, outputs.map((o) => `${o.fileName}\0${o.url}\0`).join(''));
  const curlConfig = join(work, 'curl-config');
  await writeFile(curlConfig, outputs.map((o) => `url = "${o.url}"\noutput = "${o.fileName}"\n`).join(''));

  const variants: Variant[] = [
    {
      id: 'renderdrop',
      label: `renderdrop downloadJobOutputs (${concurrency} at once)`,
      // The downloads list, one frames-route call (which frames the folder already holds), then each file.
      requests: fileCount + 2,
      run: (dest) =>
        runMeasured(process.execPath, [downloadClient, JSON.stringify({ baseUrl: bench.test.url, jobId, dir: dest, concurrency })], {
          env: { ...process.env, RENDERDROP_API_KEY: bench.test.key },
        }),
    },
    {
      id: 'xargs-curl',
      label: `xargs -P ${concurrency} curl (one curl per file)`,
      requests: fileCount,
      run: (dest) => runMeasured('xargs', ['-0', '-P', String(concurrency), '-n', '2', 'curl', '-sS', '--fail', '-o'], { cwd: dest, stdinFile: xargsList }),
    },
    {
      id: 'curl-sequential',
      label: 'curl sequential (one process, all URLs)',
      requests: fileCount,
      run: (dest) => runMeasured('curl', ['-sS', '--fail', '-K', curlConfig], { cwd: dest }),
    },
    {
      id: 'curl-parallel',
      label: `curl --parallel-max ${concurrency} (one process)`,
      requests: fileCount,
      run: (dest) => runMeasured('curl', ['-sS', '--fail', '--parallel', '--parallel-max', String(concurrency), '-K', curlConfig], { cwd: dest }),
    },
  ];

  const once = async (variant: Variant): Promise<Omit<Sample, 'run' | 'position'>> => {
    const dest = join(work, `dest-${variant.id}`);
    await mkdir(dest);
    try {
      const cpuBefore = process.cpuUsage();
      const requestsBefore = counter.snapshot().total;
      const measured = await variant.run(dest);
      const cpu = process.cpuUsage(cpuBefore);
      const requests = counter.snapshot().total - requestsBefore;
      assertSucceeded(variant.label, measured);
      let innerSeconds: number | null = null;
      if (variant.id === 'renderdrop') {
        const report = JSON.parse(measured.stdout) as { seconds: number; files: number; skipped: number };
        if (report.files !== fileCount || report.skipped !== 0) throw new Error(`renderdrop reported ${report.files} files, ${report.skipped} skipped`);
        innerSeconds = report.seconds;
      }
      await verify(variant.label, dest, digests);
      return {
        variant: variant.id,
        wallSeconds: measured.wallSeconds,
        cpuSeconds: measured.cpuSeconds,
        maxRssBytes: measured.maxRssBytes,
        innerSeconds,
        nodeCpuSeconds: (cpu.user + cpu.system) / 1e6,
        requests,
        requestsMade: variant.requests,
      };
    } finally {
      await rm(dest, { recursive: true, force: true });
    }
  };

  for (const variant of variants) await once(variant);

  const samples: Sample[] = [];
  for (let run = 0; run < runs; run++) {
    const order = variants.map((_, i) => variants[(i + run) % variants.length]!);
    for (const [position, variant] of order.entries()) {
      throwIfInterrupted();
      const sample = { ...(await once(variant)), run: run + 1, position };
      refuseImpossible('download', checkDownload({ files: fileCount, runs, variants: [], samples: [sample] }));
      samples.push(sample);
      console.log(`  run ${run + 1} ${variant.label.padEnd(44)} ${fixed(sample.wallSeconds)} s  ${fixed(sample.cpuSeconds)} s CPU`);
    }
  }
  counter.detach();
  await bench.stop();
  console.log(`\n${loadNote()}`);

  const summaries = variants.map((variant) => {
    const mine = samples.filter((s) => s.variant === variant.id);
    const cpu = mine.map((s) => s.cpuSeconds).filter((v): v is number => v !== null);
    const rss = mine.map((s) => s.maxRssBytes).filter((v): v is number => v !== null);
    const inner = mine.map((s) => s.innerSeconds).filter((v): v is number => v !== null);
    const wallSeconds = median(mine.map((s) => s.wallSeconds));
    return {
      variant: variant.id,
      label: variant.label,
      wallSeconds,
      mibPerSecond: total / MiB / wallSeconds,
      filesPerSecond: fileCount / wallSeconds,
      cpuSeconds: cpu.length ? median(cpu) : null,
      peakRssBytes: rss.length ? Math.max(...rss) : null,
      innerSeconds: inner.length ? median(inner) : null,
      nodeCpuSeconds: median(mine.map((s) => s.nodeCpuSeconds)),
    };
  });
  refuseImpossible('download', checkDownload({ files: fileCount, runs, variants: variants.map((v) => v.id), samples, summaries }));
  const xargs = summaries.find((s) => s.variant === 'xargs-curl')!;
  const mine = summaries.find((s) => s.variant === 'renderdrop')!;
  const sequential = summaries.find((s) => s.variant === 'curl-sequential')!;
  printTable(
    `Download of ${fileCount} x ${sizeLabel(fileSize)} from the node (median wall time of ${runs}, whole process; peak RSS is the largest)`,
    ['client', 'wall s', 'MiB/s', 'files/s', 'CPU s', 'peak RSS MB', 'node CPU s', 'speed vs xargs'],
    summaries.map((s) => [
      s.label,
      fixed(s.wallSeconds),
      fixed(s.mibPerSecond, 0),
      fixed(s.filesPerSecond, 0),
      fixed(s.cpuSeconds),
      fixed(s.peakRssBytes === null ? null : s.peakRssBytes / MB, 1),
      fixed(s.nodeCpuSeconds),
      fixed(xargs.wallSeconds / s.wallSeconds),
    ]),
  );
  const vsXargs = xargs.wallSeconds / mine.wallSeconds;
  const vsSequential = sequential.wallSeconds / mine.wallSeconds;
  console.log(
    `\nrenderdrop's wall time includes starting Node.js and its own GET /jobs/{id}/downloads (inside the process: ${fixed(mine.innerSeconds)} s); ` +
      'the curl URL lists were prepared beforehand.',
  );
  console.log('"CPU s" is the client processes\' user + system time (GNU time); "node CPU s" is the render node serving the files.');
  console.log(`renderdrop speed / xargs -P ${concurrency} curl = ${fixed(vsXargs)} (goal >= 1.00: ${vsXargs >= 1 ? 'met' : 'NOT met'})`);
  console.log(`renderdrop speed / sequential curl (one process) = ${fixed(vsSequential)}`);

  await writeResults('download', {
    config: {
      files: fileCount,
      fileSize,
      concurrency,
      runs,
      nodeDataParent: dataParent,
      destParent,
      commands: {
        'xargs-curl': `xargs -0 -P ${concurrency} -n 2 curl -sS --fail -o < <NUL-separated "name url" pairs>`,
        'curl-sequential': 'curl -sS --fail -K <config with one url/output pair per file>',
        'curl-parallel': `curl -sS --fail --parallel --parallel-max ${concurrency} -K <same config>`,
      },
    },
    summaries,
    ratios: { renderdropVsXargsCurl: vsXargs, renderdropVsSequentialCurl: vsSequential },
    goals: { atLeastAsFastAsXargsCurl: vsXargs >= 1 },
    samples,
  });
}

await runBench(main);
