import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildClient } from './lib/build-clients';
import { checkUpload, refuseImpossible } from './lib/checks';
import { startBenchNode, type BenchNode } from './lib/bench-node';
import { onCleanup, runBench, throwIfInterrupted } from './lib/cleanup';
import { assertSucceeded, canMeasureResources, runMeasured, type Measured } from './lib/measure';
import { intOption, sizeLabel, sizesOption } from './lib/options';
import { fixed, loadNote, median, printTable, writeResults } from './lib/report';
import { scratchParent } from './lib/scratch-space';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const MB = 1e6;

type Client = 'renderdrop' | 'curl';

interface Sample {
  client: Client;
  size: number;
  run: number;
  /** Position in the run (0: first). */
  position: number;
  transferSeconds: number;
  processSeconds: number;
  mibPerSecond: number;
  cpuSeconds: number | null;
  maxRssBytes: number | null;
  nodeCpuSeconds: number;
}

const sizes = sizesOption('sizes', '1G,4G');
/** Even by default, so each client goes first equally often. */
const runs = intOption('runs', 4);

/** Writes a file of `size` bytes made of a random 1 MiB block repeated. */
async function makeFile(path: string, size: number): Promise<void> {
  const block = randomBytes(MiB);
  const handle = await open(path, 'w');
  try {
    for (let written = 0; written < size; ) {
      throwIfInterrupted();
      const { bytesWritten } = await handle.write(block, 0, Math.min(MiB, size - written), written);
      written += bytesWritten;
    }
  } finally {
    await handle.close();
  }
}

function sync(): void {
  spawnSync('sync', { timeout: 60_000 });
}

async function uploadOnce(bench: BenchNode, uploadClient: string, client: Client, filePath: string, size: number): Promise<Omit<Sample, 'run' | 'position'>> {
  const target = await bench.client.createUpload({ fileName: 'bench.blend', fileType: 'blend' });
  const stored = bench.test.node.ctx.storage.uploadPath(target.slug);
  const removeStored = onCleanup(() => rm(stored, { force: true }));
  try {
    sync();
    const cpuBefore = process.cpuUsage();
    let measured: Measured;
    let transferSeconds: number;
    if (client === 'renderdrop') {
      const job = { filePath, size, uploadUrl: target.uploadUrl, slug: target.slug, expiresAt: target.expiresAt };
      measured = await runMeasured(process.execPath, [uploadClient, JSON.stringify(job)]);
      assertSucceeded('the Renderdrop upload', measured);
      transferSeconds = (JSON.parse(measured.stdout) as { transferSeconds: number }).transferSeconds;
    } else {
      measured = await runMeasured('curl', [
        '-sS',
        '--fail',
        '-T',
        filePath,
        '-H',
        'Content-Type: application/octet-stream',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code} %{time_total}',
        target.uploadUrl,
      ]);
      assertSucceeded('curl -T', measured);
      const [code, total] = measured.stdout.trim().split(' ');
      if (code !== '200') throw new Error(`curl -T got HTTP ${code}`);
      transferSeconds = Number(total);
    }
    const cpu = process.cpuUsage(cpuBefore);
    const storedSize = (await stat(stored)).size;
    if (storedSize !== size) throw new Error(`${client}: the node stored ${storedSize} of ${size} bytes`);
    return {
      client,
      size,
      transferSeconds,
      processSeconds: measured.wallSeconds,
      mibPerSecond: size / MiB / transferSeconds,
      cpuSeconds: measured.cpuSeconds,
      maxRssBytes: measured.maxRssBytes,
      nodeCpuSeconds: (cpu.user + cpu.system) / 1e6,
    };
  } finally {
    await removeStored();
  }
}

async function main(): Promise<void> {
  if (!canMeasureResources()) {
    console.log('GNU time is missing (/usr/bin/time): CPU and peak RSS are not measured. Install it with `apt-get install -y time`.');
  }
  console.log(`Upload benchmark: ${sizes.map(sizeLabel).join(', ')}; ${runs} run(s) per size, order alternating between Renderdrop and curl.`);
  const uploadClient = await buildClient('upload-client');
  const dataParent = await scratchParent('node-data-parent', Math.max(...sizes));
  console.log(`The node's data folder is under ${dataParent}. ${loadNote()}`);
  const bench = await startBenchNode(dataParent);
  const work = await mkdtemp(join(tmpdir(), 'rd-bench-upload-'));
  onCleanup(() => rm(work, { recursive: true, force: true }));

  const baselines: Measured[] = [];
  for (let i = 0; i < 3; i++) {
    const measured = await runMeasured(process.execPath, [uploadClient, '--noop']);
    assertSucceeded('the idle client', measured);
    baselines.push(measured);
  }

  const samples: Sample[] = [];
  for (const size of sizes) {
    const filePath = join(work, `scene-${size}.blend`);
    process.stdout.write(`\nwriting a ${sizeLabel(size)} file ... `);
    await makeFile(filePath, size);
    sync();
    console.log('done');
    const warmup = await uploadOnce(bench, uploadClient, 'curl', filePath, size);
    console.log(`  ${sizeLabel(size)} warm-up    curl       ${fixed(warmup.mibPerSecond, 0).padStart(6)} MiB/s  (not counted: the first upload of a new file is often slow)`);
    for (let run = 0; run < runs; run++) {
      const order: Client[] = run % 2 === 0 ? ['renderdrop', 'curl'] : ['curl', 'renderdrop'];
      for (const [position, client] of order.entries()) {
        throwIfInterrupted();
        const sample = { ...(await uploadOnce(bench, uploadClient, client, filePath, size)), run: run + 1, position };
        refuseImpossible('upload', checkUpload({ runs, sizes, samples: [sample] }));
        samples.push(sample);
        console.log(
          `  ${sizeLabel(size)} run ${run + 1} ${client.padEnd(10)} ${fixed(sample.mibPerSecond, 0).padStart(6)} MiB/s  ` +
            `${fixed(sample.cpuSeconds)} s CPU  ${fixed(sample.maxRssBytes === null ? null : sample.maxRssBytes / MB, 1)} MB peak RSS`,
        );
      }
    }
    await rm(filePath, { force: true });
  }
  await bench.stop();
  console.log(`\n${loadNote()}`);

  const summarize = (size: number, client: Client) => {
    const mine = samples.filter((s) => s.size === size && s.client === client);
    const cpu = mine.map((s) => s.cpuSeconds).filter((v): v is number => v !== null);
    const rss = mine.map((s) => s.maxRssBytes).filter((v): v is number => v !== null);
    const transfer = median(mine.map((s) => s.transferSeconds));
    return {
      size,
      client,
      runs: mine.length,
      mibPerSecond: median(mine.map((s) => s.mibPerSecond)),
      transferSeconds: transfer,
      processSeconds: median(mine.map((s) => s.processSeconds)),
      cpuSecondsPerGiB: cpu.length ? median(cpu) / (size / GiB) : null,
      peakRssBytes: rss.length ? Math.max(...rss) : null,
      nodeCpuShare: median(mine.map((s) => s.nodeCpuSeconds / s.transferSeconds)),
    };
  };
  const summaries = sizes.flatMap((size) => (['renderdrop', 'curl'] as const).map((client) => summarize(size, client)));
  refuseImpossible('upload', checkUpload({ runs, sizes, samples, summaries }));

  printTable(
    `Upload to the node's presigned URL (median of ${runs}; peak RSS is the largest of the runs)`,
    ['size', 'client', 'MiB/s', 'transfer s', 'process s', 'CPU s/GiB', 'peak RSS MB', 'node CPU'],
    summaries.map((s) => [
      sizeLabel(s.size),
      s.client === 'curl' ? 'curl -T' : 'renderdrop uploadFile',
      fixed(s.mibPerSecond, 0),
      fixed(s.transferSeconds),
      fixed(s.processSeconds),
      fixed(s.cpuSecondsPerGiB),
      fixed(s.peakRssBytes === null ? null : s.peakRssBytes / MB, 1),
      `${fixed(s.nodeCpuShare * 100, 0)}%`,
    ]),
  );
  const baselineRss = Math.max(...baselines.map((b) => b.maxRssBytes ?? Number.NaN));
  const baselineCpu = median(baselines.map((b) => b.cpuSeconds ?? Number.NaN));
  console.log(`Idle client process (Node.js with the upload code loaded, no transfer): ${fixed(baselineRss / MB, 1)} MB RSS, ${fixed(baselineCpu)} s CPU.`);
  console.log('"node CPU" is the render node (this process) receiving and writing the file, as a share of one core.');

  const ratios = sizes.map((size) => {
    const mine = summaries.find((s) => s.size === size && s.client === 'renderdrop')!;
    const curl = summaries.find((s) => s.size === size && s.client === 'curl')!;
    return {
      size,
      throughputRatio: mine.mibPerSecond / curl.mibPerSecond,
      cpuRatio: mine.cpuSecondsPerGiB !== null && curl.cpuSecondsPerGiB ? mine.cpuSecondsPerGiB / curl.cpuSecondsPerGiB : null,
      peakRssBytes: mine.peakRssBytes,
    };
  });
  console.log('');
  for (const r of ratios) {
    console.log(
      `${sizeLabel(r.size).padEnd(8)} throughput renderdrop/curl = ${fixed(r.throughputRatio)} (goal >= 0.90: ${r.throughputRatio >= 0.9 ? 'met' : 'NOT met'}); ` +
        `CPU per GiB renderdrop/curl = ${fixed(r.cpuRatio)}`,
    );
  }
  const rssValues = ratios.map((r) => r.peakRssBytes).filter((v): v is number => v !== null);
  const rssUnder = rssValues.length > 0 && rssValues.every((v) => v < 150 * MB);
  const rssSpread = rssValues.length > 0 ? (Math.max(...rssValues) - Math.min(...rssValues)) / MB : null;
  const rssSame = rssSpread !== null && rssSpread <= 10;
  console.log(
    `peak RSS of renderdrop: ${ratios.map((r) => `${sizeLabel(r.size)} ${fixed(r.peakRssBytes === null ? null : r.peakRssBytes / MB, 1)} MB`).join(', ')} ` +
      `(goal < 150 MB: ${rssUnder ? 'met' : 'NOT met'}; same for every size, within 10 MB: ${rssSame ? 'met' : 'NOT met'})`,
  );

  await writeResults('upload', {
    config: { sizes, runs, nodeDataParent: dataParent, fileType: 'blend', curlCommand: "curl -sS --fail -T <file> -H 'Content-Type: application/octet-stream' -o /dev/null -w '%{http_code} %{time_total}' <url>" },
    idleClient: { maxRssBytes: baselineRss, cpuSeconds: baselineCpu },
    summaries,
    ratios,
    goals: { throughputAtLeast90PercentOfCurl: ratios.every((r) => r.throughputRatio >= 0.9), peakRssUnder150MB: rssUnder, peakRssSameForAllSizes: rssSame },
    samples,
  });
}

await runBench(main);
