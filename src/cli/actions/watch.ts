import { JobTracker, type TrackerSource } from '../../core/tracking';
import type { ExitCode } from '../exit-code-for';
import { EXIT } from '../exit-codes';
import { type CliContext, resolveJobId } from '../context';
import { followUntilIdle, type WatchedJob, WatchReport } from '../watch';

/**
 * Follows every job the server lists as active (and any that becomes active meanwhile) until none is,
 * or only the job named; exits with `jobFailed` when one of them did not complete.
 */
export async function watch(ctx: CliContext, typed: string | undefined, opts: { json?: boolean }): Promise<ExitCode> {
  const client = await ctx.client();
  const report = new WatchReport(ctx.io.stdout, Boolean(opts.json));
  const interrupt = ctx.listenForInterrupt();
  const watched = new Map<string, WatchedJob>();
  const only = typed === undefined ? null : await resolveJobId(client, typed, { signal: interrupt.signal });

  let tracker: JobTracker | null = null;
  const follow = (jobId: string) => {
    if (watched.has(jobId) || (only !== null && jobId !== only)) return;
    watched.set(jobId, { job: null, frames: null, framesSeen: null });
    tracker?.watch(jobId);
  };
  const source: TrackerSource = {
    getAllProgress: async (options) => {
      const records = await client.getAllProgress(options);
      records.forEach((r) => follow(r.jobId));
      return records;
    },
    getJob: (jobId, options) => client.getJob(jobId, options),
  };

  try {
    const initial = only === null ? await client.getAllProgress({ signal: interrupt.signal }) : [{ jobId: only }];
    if (initial.length === 0) {
      report.noActiveJobs();
      return EXIT.ok;
    }
    tracker = new JobTracker({ client: source });
    initial.forEach((r) => follow(r.jobId));
    for (const jobId of watched.keys()) tracker.watch(jobId);
    const finished = await followUntilIdle({ tracker, watched, report, signal: interrupt.signal });
    report.idle();
    return finished.some((job) => job.status !== 'completed') ? EXIT.jobFailed : EXIT.ok;
  } finally {
    tracker?.stop();
    report.close();
    interrupt.dispose();
  }
}
