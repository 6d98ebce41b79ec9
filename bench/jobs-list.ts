/**
 * `GET /jobs?status=...` against the unfiltered `GET /jobs` of the same node in the same run, with
 * 10,000 jobs in its database: requests per second and latency of each under the same load (10
 * connections from a separate process), and the latency of `/healthz` meanwhile. The same is measured
 * again with the index the node had before (`jobs(status)` alone) for comparison.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { sampleAnalysis } from '../test/fixtures/analysis';
import { startBenchNode, type BenchNode } from './lib/bench-node';
import { checkJobsList, refuseImpossible, type JobsListFigures } from './lib/checks';
import { buildClient } from './lib/build-clients';
import { runBench, throwIfInterrupted } from './lib/cleanup';
import { intOption } from './lib/options';
import { fixed, loadNote, median, printTable, writeResults } from './lib/report';
import { RequestCounter } from './lib/request-counter';
import { putJobInStatus } from '../test/helpers/job-status';

const jobCount = intOption('jobs', 10_000);
const seconds = intOption('seconds', 5);
const connections = intOption('connections', 10);
const run = promisify(execFile);

/** Fills the node's database with `count` finished jobs carrying full analyses and configs, as real ones do. */
function seedJobs(bench: BenchNode, count: number): Record<string, number> {
  const { jobs, db } = bench.test.node.ctx;
  const statuses = ['completed', 'completed', 'completed', 'completed', 'completed', 'completed', 'completed', 'completed', 'failed', 'canceled'] as const;
  const counts: Record<string, number> = {};
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const slug = `bench-list-${i}`;
      const job = jobs.create({ userId: 'bench', uploadSlug: slug, sceneFile: { fileName: `shot-${i}.blend`, fileType: 'blend', size: 1_000_000, slug, scenePath: `shot-${i}.blend` } });
      const status = statuses[i % statuses.length]!;
      counts[status] = (counts[status] ?? 0) + 1;
      putJobInStatus({ db, jobs }, job.id, status, {
        analysis: sampleAnalysis(),
        analysisId: randomUUID(),
        requestedConfig: { colorManagementPreset: 'default', sampleCount: 64 },
        finalConfig: { colorManagementPreset: 'default', sampleCount: 64, frameRanges: ['1-3'], adjustments: [] },
        totalFrames: 3,
        completedFrames: status === 'completed' ? 3 : 1,
      });
    }
  })();
  return counts;
}

/** Which index serves status filters: the node's own (status, seq), or the one it had before. */
function useIndex(bench: BenchNode, which: 'current' | 'previous'): void {
  const { db } = bench.test.node.ctx;
  db.exec(
    which === 'previous'
      ? 'DROP INDEX IF EXISTS jobs_status_seq; CREATE INDEX IF NOT EXISTS jobs_status ON jobs(status);'
      : 'DROP INDEX IF EXISTS jobs_status; CREATE INDEX IF NOT EXISTS jobs_status_seq ON jobs(status, seq);',
  );
}

interface Measured {
  label: string;
  index: string;
  /** Requests the client made: GET of the query, and of /healthz. */
  requests: number;
  probes: number;
  latencies: number;
  /** Requests the node counted meanwhile. */
  counted: number;
  /** The load's time, measured by the client, and the client process's wall time. */
  clientSeconds: number;
  wallSeconds: number;
  requestsPerSecond: number;
  medianMs: number;
  p99Ms: number;
  healthzMedianMs: number;
  healthzMaxMs: number;
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;

async function load(client: string, bench: BenchNode, counter: RequestCounter, label: string, path: string, index: string, forSeconds = seconds): Promise<Measured> {
  throwIfInterrupted();
  const job = { url: `${bench.test.api}${path}`, connections, seconds: forSeconds, probeUrl: `${bench.test.url}/healthz` };
  const before = counter.snapshot().total;
  const started = performance.now();
  const { stdout } = await run(process.execPath, [client, JSON.stringify(job)], { env: { ...process.env, BENCH_API_KEY: bench.test.key }, maxBuffer: 256 * 1024 * 1024 });
  const wallSeconds = (performance.now() - started) / 1000;
  const counted = counter.snapshot().total - before;
  const out = JSON.parse(stdout) as { requests: number; seconds: number; latencies: number[]; probes: number[] };
  return {
    label,
    index,
    requests: out.requests,
    probes: out.probes.length,
    latencies: out.latencies.length,
    counted,
    clientSeconds: out.seconds,
    wallSeconds,
    requestsPerSecond: out.requests / out.seconds,
    medianMs: median(out.latencies),
    p99Ms: percentile(out.latencies, 0.99),
    healthzMedianMs: median(out.probes),
    healthzMaxMs: Math.max(...out.probes),
  };
}

await runBench(async () => {
  console.log(`GET /jobs with and without a status filter, ${jobCount} jobs, ${connections} connections for ${seconds} s each. ${loadNote()}`);
  const client = await buildClient('load-client');
  const bench = await startBenchNode();
  const counter = new RequestCounter(bench.test.node.app.server);
  try {
    const counts = seedJobs(bench, jobCount);
    const queries = [
      ['unfiltered', '/jobs?pageSize=20'],
      [`status=completed (${counts.completed} jobs)`, '/jobs?status=completed&pageSize=20'],
      [`status=failed (${counts.failed} jobs)`, '/jobs?status=failed&pageSize=20'],
    ] as const;
    const results: Measured[] = [];
    for (const index of ['current', 'previous'] as const) {
      useIndex(bench, index);
      await load(client, bench, counter, 'warm-up', '/jobs?pageSize=20', index, 1);
      for (const [label, path] of queries) results.push(await load(client, bench, counter, label, path, index === 'current' ? 'jobs(status, seq)' : 'jobs(status) (before)'));
    }
    useIndex(bench, 'current');
    refuseImpossible('jobs-list', checkJobsList({ results } satisfies JobsListFigures));
    const unfiltered = (index: string) => results.find((r) => r.index === index && r.label === 'unfiltered')!.requestsPerSecond;
    printTable(
      'GET /jobs under load (the ratio is requests per second against the unfiltered list, same index)',
      ['query', 'index', 'req/s', 'ratio', 'median ms', 'p99 ms', 'healthz median ms', 'healthz max ms'],
      results.map((r) => [r.label, r.index, fixed(r.requestsPerSecond, 0), fixed(r.requestsPerSecond / unfiltered(r.index)), fixed(r.medianMs, 1), fixed(r.p99Ms, 1), fixed(r.healthzMedianMs, 1), fixed(r.healthzMaxMs, 1)]),
    );
    const filtered = results.filter((r) => r.index === 'jobs(status, seq)' && r.label !== 'unfiltered');
    const worst = Math.min(...filtered.map((r) => r.requestsPerSecond / unfiltered(r.index)));
    console.log(`\nGoal: status filters as fast as the unfiltered list (ratio >= 0.9): ${worst >= 0.9 ? 'met' : 'NOT met'} (worst ratio ${fixed(worst)}).`);
    await writeResults('jobs-list', { config: { jobCount, seconds, connections, counts }, results, goals: { filteredAsFastAsUnfiltered: worst >= 0.9, worstRatio: worst } });
  } finally {
    counter.detach();
    await bench.stop();
  }
});
