import { setTimeout as sleep } from 'node:timers/promises';
import { readJobLog, type ApiClient, type CallOptions } from '../../core/api';
import { AbortError, isAbort } from '../../core/errors';
import { isTerminalStatus, type Job } from '../../shared/api';
import { EXIT } from '../exit-codes';
import type { ExitCode } from '../exit-code-for';
import { safeText } from '../terminal';
import { type CliContext, resolveJobId } from '../context';

/** How often `--follow` asks for new lines. */
const FOLLOW_MS = 1000;

/**
 * `renderdrop logs <id> [--follow]`: the job's log on stdout. With `--follow`, new lines as they come
 * until the job has finished. From a farm that keeps no log: the job's failure reason, and that the
 * farm keeps none (exit code 1).
 */
export async function logs(ctx: CliContext, typed: string, opts: { follow?: boolean }): Promise<ExitCode> {
  const client = await ctx.client();
  const interrupt = ctx.listenForInterrupt();
  const call = { signal: interrupt.signal };
  const write = (text: string) => void ctx.io.stdout.write(safeText(text, { multiline: true }));
  try {
    const jobId = await resolveJobId(client, typed, call);
    const first = await readJobLog(client, jobId, 0, call);
    if (first.kind === 'no-log') {
      ctx.io.stderr.write(`${noLogMessage(first.job)}\n`);
      return EXIT.failure;
    }
    write(first.log.text);
    if (opts.follow) await follow(client, jobId, first.log.nextOffset, write, call);
    return EXIT.ok;
  } catch (error) {
    if (isAbort(error) && opts.follow) throw new AbortError('Stopped following the log; the job goes on.');
    throw error;
  } finally {
    interrupt.dispose();
  }
}

/** Print new lines until the job has finished and its last lines have been read. */
async function follow(client: ApiClient, jobId: string, from: number, write: (text: string) => void, call: CallOptions): Promise<void> {
  let since = from;
  for (;;) {
    const job = await client.getJob(jobId, call);
    const log = await client.getJobLog(jobId, since, call);
    write(log.text);
    since = log.nextOffset;
    if (isTerminalStatus(job.status)) return;
    await sleep(FOLLOW_MS, undefined, call);
  }
}

/** What is said of a job on a farm that keeps no log: its failure reason when it failed. */
export function noLogMessage(job: Pick<Job, 'id' | 'status' | 'failedReason'>): string {
  const reason = job.failedReason?.message?.trim();
  const said = reason ? `Job ${job.id} failed: ${safeText(reason)}\n` : '';
  return `${said}This farm keeps no log of what Blender printed for job ${job.id}${reason ? '' : ` (it is ${job.status})`}.`;
}
