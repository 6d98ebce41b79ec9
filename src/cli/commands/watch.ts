import type { Command } from 'commander';
import { AbortError, ContractError, NotFoundError, serializeError } from '../../core/errors';
import { sceneNameOf } from '../../core/download';
import { JobTracker, type TrackerSource } from '../../core/tracking';
import { type Job, isWorkingStatus } from '../../shared/api';
import type { ExitCode } from '../exit-code-for';
import { EXIT } from '../exit-codes';
import { formatFrames, formatTrackerRetry } from '../output/format-progress';
import { LiveDisplay } from '../output/live-display';
import { safeText } from '../output/safe-text';
import { truncate } from '../output/table';
import type { CliDeps } from '../cli-deps';
import { cliAction } from '../session/cli-action';
import type { CliContext } from '../session/cli-context';
import { shortId } from '../submit/submission-line';

interface Watched {
  job: Job | null;
  frames: { completedFrames: number; totalFrames: number } | null;
}

/** `renderdrop watch`: live progress of every active job. */
export function registerWatchCommand(program: Command, deps: CliDeps): void {
  program
    .command('watch')
    .description('Show live progress of all active jobs until none is active. Ctrl-C stops watching; the jobs go on.')
    .option('--json', 'one JSON object per line and event: status, progress, error, idle')
    .action(cliAction(deps, watch));
}

async function watch(ctx: CliContext, opts: { json?: boolean }): Promise<ExitCode> {
  const client = await ctx.client();
  const json = Boolean(opts.json);
  const out = ctx.io.stdout;
  const emit = (event: Record<string, unknown>) => void out.write(`${JSON.stringify(event)}\n`);
  const display = new LiveDisplay(out, { live: Boolean(out.isTTY) && !json });
  const interrupt = ctx.listenForInterrupt();
  const watched = new Map<string, Watched>();
  let ended = false;

  let tracker: JobTracker | null = null;
  const follow = (jobId: string) => {
    if (watched.has(jobId)) return;
    watched.set(jobId, { job: null, frames: null });
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
    const initial = await client.getAllProgress({ signal: interrupt.signal });
    if (initial.length === 0) {
      if (json) emit({ type: 'idle', jobs: 0 });
      else out.write('No active jobs.\n');
      return EXIT.ok;
    }
    tracker = new JobTracker({ client: source });
    initial.forEach((r) => follow(r.jobId));
    for (const jobId of watched.keys()) tracker.watch(jobId);

    const lineOf = (jobId: string): string => {
      const state = watched.get(jobId)!;
      const scene = state.job ? safeText(sceneNameOf(state.job) ?? '') : '';
      const status = state.job?.status ?? 'reading';
      const frames = state.frames && state.frames.totalFrames > 0 ? formatFrames(state.frames.completedFrames, state.frames.totalFrames, { bar: display.live }) : '';
      return [shortId(jobId), truncate(scene, 24).padEnd(24), status.padEnd(10), frames].join('  ').trimEnd();
    };
    const finished: Job[] = [];

    await new Promise<void>((resolve, reject) => {
      const t = tracker!;
      const checkIdle = () =>
        setImmediate(() => {
          if (ended) return;
          const left = t.list().filter((entry) => entry.job === null || isWorkingStatus(entry.job.status));
          if (left.length === 0) resolve();
        });
      t.on('status', ({ jobId, job, previous }) => {
        const state = watched.get(jobId);
        if (!state) return;
        state.job = job;
        if (json) emit({ type: 'status', jobId, status: job.status, previous, scene: sceneNameOf(job) });
        if (!isWorkingStatus(job.status)) {
          if (!json) display.finish(jobId, lineOf(jobId));
          if (job.status === 'completed' || job.status === 'failed' || job.status === 'canceled') finished.push(job);
        } else if (!json) display.update(jobId, lineOf(jobId), { force: true });
        checkIdle();
      });
      t.on('job', ({ job }) => {
        const state = watched.get(job.id);
        if (state) state.job = job;
      });
      t.on('progress', ({ jobId, completedFrames, totalFrames }) => {
        const state = watched.get(jobId);
        if (!state) return;
        state.frames = { completedFrames, totalFrames };
        if (json) emit({ type: 'progress', jobId, completedFrames, totalFrames });
        else if (!state.job || isWorkingStatus(state.job.status)) display.update(jobId, lineOf(jobId));
      });
      t.on('error', ({ error: reported, retryInMs, jobId, fatal }) => {
        const error = jobId !== undefined && reported instanceof NotFoundError ? listedButUnknown(jobId) : reported;
        const message = serializeError(error).message;
        if ((jobId === undefined && fatal) || error instanceof ContractError) {
          if (json) emit({ type: 'error', ...(jobId ? { jobId } : {}), message, fatal: true });
          reject(error);
          return;
        }
        if (json) emit({ type: 'error', ...(jobId ? { jobId } : {}), message, retryInMs, fatal });
        else display.print(jobId ? `${shortId(jobId)}: ${message}` : formatTrackerRetry(error, retryInMs));
        if (jobId) {
          watched.delete(jobId);
          checkIdle();
        }
      });
      interrupt.signal.addEventListener('abort', () => reject(new AbortError('Stopped watching; the jobs go on.')), { once: true });
      t.start();
    });
    if (json) emit({ type: 'idle', jobs: 0 });
    else display.print('No more active jobs.');
    return finished.some((job) => job.status !== 'completed') ? EXIT.jobFailed : EXIT.ok;
  } finally {
    ended = true;
    tracker?.stop();
    display.close();
    interrupt.dispose();
  }
}

/**
 * Every job watch follows came from the server's list of active jobs, so a job the server then says
 * it does not know is a contract break, not a job that went away.
 */
function listedButUnknown(jobId: string): ContractError {
  return new ContractError('GET /jobs/progress', 'jobId', `it lists job ${jobId} as active, and GET /jobs/{id} answers 404 for it`);
}
