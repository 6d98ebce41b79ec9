import { type ApiClient, setWorkerBlock, updateJobSettings } from '../../core/api';
import { InvalidStateError, NotFoundError } from '../../core/errors';
import { isTerminalStatus, studioOf } from '../../shared/api';
import { clockFact, renderClockOf, renderTimingOf } from '../../shared/render';
import { priorityWords } from '../../shared/text';
import { CommandFailedError } from '../cli-errors';
import { type CliContext, resolveJobId, studioFarmWorkers } from '../context';
import { blockWords, formatWorkers } from '../output';
import { safeText } from '../terminal';

/** A 404 from a studio call: the job is unknown, or the farm has no such extension; asked once to tell which. */
async function explainNotFound(client: ApiClient, error: unknown, doing: string, signal: AbortSignal): Promise<never> {
  if (error instanceof NotFoundError) await studioFarmWorkers(client, doing, { signal });
  throw error;
}

/** `renderdrop priority <job> <n>`: changes a waiting or rendering job's priority on a Renderdrop node. */
export async function setPriority(ctx: CliContext, typed: string, priority: number): Promise<void> {
  const client = await ctx.client();
  const interrupt = ctx.listenForInterrupt();
  try {
    const call = { signal: interrupt.signal };
    const id = await resolveJobId(client, typed, call);
    const job = await updateJobSettings(client, id, { priority }, call).catch(async (error: unknown) => {
      if (error instanceof InvalidStateError) {
        const ended = await client.getJob(id, call).catch(() => null);
        if (ended && isTerminalStatus(ended.status)) throw new CommandFailedError(`Job ${id} is already ${ended.status}; a priority only changes the order of work still to do.`);
      }
      return explainNotFound(client, error, 'change the priority of a job', interrupt.signal);
    });
    const now = studioOf(job).priority ?? priority;
    const clock = renderClockOf(renderTimingOf(job), Date.now());
    const when = clock.phase === 'waiting' ? ` ${safeText(clockFact(clock).text)}.` : '';
    ctx.io.stdout.write(`Job ${safeText(job.id)} now has priority ${priorityWords(now)}.${when}\n`);
  } finally {
    interrupt.dispose();
  }
}

/** `renderdrop workers [--json]`: the render workers of the active profile's node. */
export async function showWorkers(ctx: CliContext, opts: { json?: boolean }): Promise<void> {
  const client = await ctx.client();
  const interrupt = ctx.listenForInterrupt();
  try {
    const view = await studioFarmWorkers(client, 'list render workers', { signal: interrupt.signal });
    ctx.io.stdout.write(opts.json ? `${JSON.stringify(view, null, 2)}\n` : `${formatWorkers(view).join('\n')}\n`);
  } finally {
    interrupt.dispose();
  }
}

/** `renderdrop workers block|unblock <worker> [--job <id>]`: keeps a worker from a job (or every job), or lets it take them again. */
export async function changeWorkerBlock(ctx: CliContext, block: boolean, worker: string, opts: { job?: string }): Promise<void> {
  const client = await ctx.client();
  const interrupt = ctx.listenForInterrupt();
  try {
    const call = { signal: interrupt.signal };
    const jobId = opts.job !== undefined ? await resolveJobId(client, opts.job, call) : undefined;
    const view = await setWorkerBlock(client, block, { worker, ...(jobId !== undefined ? { jobId } : {}) }, call).catch(async (error: unknown) => {
      if (!(error instanceof NotFoundError)) throw error;
      const list = await studioFarmWorkers(client, `${block ? 'block' : 'unblock'} render workers`, call);
      const names = list.mode === 'distributed' ? list.workers.map((w) => w.name) : [];
      if (names.includes(worker)) throw error;
      const known = names.length > 0 ? ` Its workers: ${names.map((n) => safeText(n)).join(', ')}.` : ' It has no render worker now.';
      throw new CommandFailedError(`This node has no render worker named "${safeText(worker)}" (none reported in the last day).${known}`);
    });
    const blocks = view.mode === 'distributed' ? (view.blocks ?? []) : [];
    const what = jobId === undefined ? 'every job' : `job ${jobId.slice(0, 8)}`;
    const name = safeText(worker);
    if (block) {
      ctx.io.stdout.write(`${name} is blocked for ${what}: it takes none of ${jobId === undefined ? 'their' : 'its'} frames until unblocked (a chunk it renders now finishes).\n`);
    } else {
      const still = blocks.filter((b) => b.worker === worker);
      const rest = still.length > 0 ? ` Still blocked: ${still.map(blockWords).join('; ')}.` : '';
      ctx.io.stdout.write(`${name} may render ${what} again.${rest}\n`);
    }
  } finally {
    interrupt.dispose();
  }
}
