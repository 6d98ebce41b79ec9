import { InvalidStateError, isAbort } from '../../core/errors';
import { estimateOf, type ProgressRecord, isTerminalStatus, type JobStatus } from '../../shared/api';
import { clockSummaryOf, renderTimingOf } from '../../shared/render';
import { CommandFailedError } from '../cli-errors';
import { artistJobWarnings, formatJobDetails, formatJobList, formatJobWarnings } from '../output';
import { safeText } from '../terminal';
import { type CliContext, resolveJobId } from '../context';

/** List jobs on the server, newest first (`renderdrop jobs`). */
export async function listJobs(ctx: CliContext, opts: { status?: JobStatus; page?: number; pageSize?: number; json?: boolean }): Promise<void> {
  const client = await ctx.client();
  const interrupt = ctx.listenForInterrupt();
  try {
    const list = await client.listJobs(
      { ...(opts.status ? { status: opts.status } : {}), ...(opts.page ? { page: opts.page } : {}), ...(opts.pageSize ? { pageSize: opts.pageSize } : {}) },
      { signal: interrupt.signal },
    );
    if (opts.json) ctx.io.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
    else ctx.io.stdout.write(`${formatJobList(list, { ...(opts.status ? { status: opts.status } : {}), ...(opts.page ? { page: opts.page } : {}) }).join('\n')}\n`);
  } finally {
    interrupt.dispose();
  }
}

/** Show one job with its progress and its warnings (`renderdrop status <id>`). */
export async function showJob(ctx: CliContext, typed: string, opts: { json?: boolean }): Promise<void> {
  const client = await ctx.client();
  const interrupt = ctx.listenForInterrupt();
  try {
    const call = { signal: interrupt.signal };
    const id = await resolveJobId(client, typed, call);
    const job = await client.getJob(id, call);
    let progress: ProgressRecord | null = null;
    try {
      progress = await client.getProgress(id, call);
    } catch (error) {
      if (isAbort(error)) throw error;
    }
    const record = (await (await ctx.journal()).list()).filter((r) => r.jobId === id && r.baseUrl === client.baseUrl).at(-1) ?? null;
    const warnings = artistJobWarnings(job, record?.packing ?? null);
    if (opts.json) {
      const timing = renderTimingOf(job);
      const counts = progress && job.status !== 'completed' ? { completedFrames: progress.completedFrames, totalFrames: progress.totalFrames } : {};
      const clock = clockSummaryOf({ ...timing, ...counts }, Date.now());
      const estimate = estimateOf(job);
      ctx.io.stdout.write(`${JSON.stringify({ job, progress, warnings, clock, estimate: estimate && !isTerminalStatus(job.status) ? estimate : null }, null, 2)}\n`);
    }
    else ctx.io.stdout.write(`${[...formatJobDetails(job, progress), ...formatJobWarnings(warnings)].join('\n')}\n`);
  } finally {
    interrupt.dispose();
  }
}

/** Cancel a job (`renderdrop cancel <id>`); a job already ended is said so. */
export async function cancelJobCommand(ctx: CliContext, typed: string): Promise<void> {
  const client = await ctx.client();
  const interrupt = ctx.listenForInterrupt();
  try {
    const call = { signal: interrupt.signal };
    const id = await resolveJobId(client, typed, call);
    try {
      await client.cancelJob(id, call);
    } catch (error) {
      if (!(error instanceof InvalidStateError)) throw error;
      const job = await client.getJob(id, call).catch(() => null);
      if (job && isTerminalStatus(job.status)) throw new CommandFailedError(`Job ${id} is already ${job.status}; there is nothing to cancel.`);
      throw error;
    }
    ctx.io.stdout.write(`Canceled job ${safeText(id)}.\n`);
  } finally {
    interrupt.dispose();
  }
}
