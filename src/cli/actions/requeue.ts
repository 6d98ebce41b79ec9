import type { ApiClient } from '../../core/api';
import type { SubmissionJournal, SubmissionRecord } from '../../core/journal';
import { requeueOrResend } from '../../core/verify';
import type { RequeueRequest } from '../../shared/api';
import { describeFrames, requeueRequestOf } from '../../shared/render';
import { UsageError } from '../cli-errors';
import type { ExitCode } from '../exit-code-for';
import { EXIT } from '../exit-codes';
import { safeText } from '../terminal';
import { type CliContext, resolveJobId } from '../context';
import { outcomeExitCode, type SubmissionOutcome } from '../submit';
import { withRecordRunner } from './verify';

interface RequeueOptions {
  frames?: string;
  failed?: boolean;
  json?: boolean;
}

/** The request `--frames` or `--failed` asks for; a usage error unless exactly one is given. */
function requestOf(opts: RequeueOptions): RequeueRequest {
  if (opts.failed && opts.frames !== undefined) throw new UsageError('Give --frames or --failed, not both.');
  if (opts.failed) return { failed: true };
  const request = opts.frames === undefined ? null : requeueRequestOf(opts.frames);
  if (request === null) throw new UsageError('Say which frames to render again: --frames 5,9-12, or --failed for the frames that did not render.');
  return request;
}

/**
 * `renderdrop requeue <job> --frames 5,9-12 | --failed`: render those frames again inside the same job
 * (a Renderdrop node), keeping every other frame. A farm that cannot gets a new job of exactly those
 * frames from the scene the job was sent from, and the output says so.
 */
export async function requeue(ctx: CliContext, typed: string, opts: RequeueOptions): Promise<ExitCode> {
  const request = requestOf(opts);
  const client = await ctx.client();
  const journal = await ctx.journal();
  const interrupt = ctx.listenForInterrupt();
  const say = (text: string) => void (opts.json ? ctx.io.stderr : ctx.io.stdout).write(`${safeText(text)}\n`);
  try {
    const jobId = await resolveJobId(client, typed, { signal: interrupt.signal });
    const outcome = await requeueOrResend({ client, journal, jobId, request, options: { signal: interrupt.signal } });
    if (outcome.kind === 'requeued') {
      const what = outcome.said.replace(/^requeued /, '');
      say(`Rendering ${what} of job ${jobId} again inside the job; its other frames stay. Bring the new frames into its folder with \`renderdrop download ${jobId} --follow\`.`);
      if (opts.json) ctx.io.stdout.write(`${JSON.stringify({ jobId, requeued: true, frames: what.replace(/^frames? /, ''), job: outcome.job }, null, 2)}\n`);
      return EXIT.ok;
    }
    const sent = await sendAgain(ctx, { client, journal, record: outcome.record, signal: interrupt.signal, json: Boolean(opts.json) });
    const frames = describeFrames(outcome.frames);
    if (sent.jobId !== null) say(`This farm cannot render frames again inside a job: sent ${outcome.frames.length === 1 ? 'frame' : 'frames'} ${frames} as a new job ${sent.jobId}.`);
    if (opts.json) ctx.io.stdout.write(`${JSON.stringify({ jobId, requeued: false, frames, newJobId: sent.jobId, state: sent.state }, null, 2)}\n`);
    return outcomeExitCode(sent);
  } finally {
    interrupt.dispose();
  }
}

/** Sends the recorded gap-fill job and leaves it rendering (its download is resumed by `watch`). */
async function sendAgain(ctx: CliContext, o: { client: ApiClient; journal: SubmissionJournal; record: SubmissionRecord; signal: AbortSignal; json: boolean }): Promise<SubmissionOutcome> {
  return withRecordRunner(ctx, { journal: o.journal, signal: o.signal, json: o.json, name: o.record.file.name }, async (runner) => {
    const started = await runner.start(o.record, o.client);
    return 'handedOff' in started ? runner.leftRendering(started) : started;
  });
}
