import type { Command } from 'commander';
import { InvalidStateError, isAbort } from '../../core/errors';
import { type ProgressRecord, isTerminalStatus, type JobStatus } from '../../shared/api';
import { CommandFailedError } from '../cli-errors';
import { parsePage, parsePageSize, parseStatusOption } from '../options/parse-options';
import { formatJobDetails, formatJobList } from '../output/format-jobs';
import { safeText } from '../output/safe-text';
import type { CliDeps } from '../cli-deps';
import { cliAction } from '../session/cli-action';
import { resolveJobId } from '../session/resolve-job-id';

/** `renderdrop jobs`, `renderdrop status <id>` and `renderdrop cancel <id>`. */
export function registerJobCommands(program: Command, deps: CliDeps): void {
  program
    .command('jobs')
    .description('List jobs on the server, newest first.')
    .option('--status <status>', 'only jobs in this status (created, validating, validated, booting, rendering, finalizing, completed, failed, canceled, ...)', parseStatusOption)
    .option('--page <n>', 'page to show (from 1)', parsePage)
    .option('--page-size <n>', 'jobs per page (1-100, default 20)', parsePageSize)
    .option('--json', 'machine-readable output: the server\'s list with its pagination')
    .action(
      cliAction(deps, async (ctx, opts: { status?: JobStatus; page?: number; pageSize?: number; json?: boolean }) => {
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
      }),
    );

  program
    .command('status <id>')
    .description('Show one job: status, frames, settings, why it failed. The id may be shortened to its first characters.')
    .option('--json', 'machine-readable output: { job, progress }')
    .action(
      cliAction(deps, async (ctx, typed: string, opts: { json?: boolean }) => {
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
          if (opts.json) ctx.io.stdout.write(`${JSON.stringify({ job, progress }, null, 2)}\n`);
          else ctx.io.stdout.write(`${formatJobDetails(job, progress).join('\n')}\n`);
        } finally {
          interrupt.dispose();
        }
      }),
    );

  program
    .command('cancel <id>')
    .description('Cancel a job that is validating or rendering; frames already rendered stay downloadable.')
    .action(
      cliAction(deps, async (ctx, typed: string) => {
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
      }),
    );
}
