import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliDeps } from '../cli-deps';

/** A fraction as a whole percentage ("8 %"). */
const percent = (value: number) => `${Math.round(value * 100)} %`;

/** The lines `node stats` prints: how many finished jobs had an estimate, how far off they were, the share within 20 %. */
export function formatEstimateStats(stats: { count: number; medianError: number | null; worstError: number | null; within20: number | null }): string {
  if (stats.count === 0 || stats.medianError === null || stats.worstError === null || stats.within20 === null) {
    return 'No finished job had an estimate yet: the node estimates a job once it is validated, and counts it here once its render completes.';
  }
  const jobs = stats.count === 1 ? '1 finished job' : `${stats.count} finished jobs`;
  const within = Math.round(stats.within20 * stats.count);
  return [
    `${jobs} had an estimate before Start.`,
    `Off by ${percent(stats.medianError)} in the middle (median), ${percent(stats.worstError)} at worst; ${within} of ${stats.count} (${percent(stats.within20)}) within 20 % of the render time taken.`,
  ].join('\n');
}

/** `node stats`: how right the node's estimates have been, from its data folder. */
export function registerNodeStatsCommand(node: Command, deps: CliDeps, defaultData: string): void {
  const { stdout } = deps.io;
  node
    .command('stats')
    .description("How right the node's render estimates have been: finished jobs, median and worst error, share within 20 %.")
    .option('--data <dir>', 'data folder', defaultData)
    .option('--json', 'machine-readable output')
    .action(async (opts: { data: string; json?: boolean }) => {
      const { openDatabase, EstimatesRepo } = await import('../../render-node/store');
      const { estimateStats } = await import('../../render-node/estimate');
      const db = openDatabase(resolve(opts.data));
      try {
        const records = new EstimatesRepo(db).finished();
        const stats = estimateStats(records);
        if (!opts.json) return void stdout.write(formatEstimateStats(stats) + '\n');
        const jobs = records.map((r) => ({ jobId: r.jobId, estimate: r.given, tookSeconds: r.tookSeconds, finishedAt: r.finishedAt }));
        stdout.write(JSON.stringify({ ...stats, jobs }, null, 2) + '\n');
      } finally {
        db.close();
      }
    });
}
