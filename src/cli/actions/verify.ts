import { resolve } from 'node:path';
import type { ApiClient } from '../../core/api';
import { jobFolderName } from '../../core/download';
import type { SubmissionJournal, SubmissionRecord } from '../../core/journal';
import { recordMissingFrames, sceneRefusal, framesToRender, verifyJobFolder, type JobFolderCheck } from '../../core/verify';
import { effectiveDownloadDir } from '../../core/settings';
import { describeFrames } from '../../shared/render';
import { isTerminalStatus } from '../../shared/api';
import { CommandFailedError } from '../cli-errors';
import { combineExitCodes, type ExitCode } from '../exit-code-for';
import { EXIT } from '../exit-codes';
import { LiveDisplay } from '../output';
import { safeText } from '../terminal';
import { type CliContext, resolveJobId } from '../context';
import { outcomeExitCode, type SubmissionOutcome, SubmissionRunner } from '../submit';
import { checkJson, describeCheck } from '../verify';

interface VerifyOptions {
  dir?: string;
  fix?: boolean;
  json?: boolean;
}


/** The journal record of a job's submission to this server, the latest when there are several. */
async function recordOf(journal: SubmissionJournal, jobId: string, baseUrl: string): Promise<SubmissionRecord | null> {
  return (await journal.list()).filter((r) => r.jobId === jobId && r.baseUrl === baseUrl).at(-1) ?? null;
}

/** `renderdrop verify <id>`: checks the job's folder frame by frame, renders what is missing with `--fix`. */
export async function verify(ctx: CliContext, typed: string, opts: VerifyOptions): Promise<ExitCode> {
  const client = await ctx.client();
  const journal = await ctx.journal();
  const out = opts.json ? ctx.io.stderr : ctx.io.stdout;
  const say = (lines: string[]) => out.write(`${safeText(lines.join('\n'), { multiline: true })}\n`);
  const interrupt = ctx.listenForInterrupt();
  try {
    const call = { signal: interrupt.signal };
    const jobId = await resolveJobId(client, typed, call);
    const job = await client.getJob(jobId, call);
    const record = await recordOf(journal, jobId, client.baseUrl);
    const folder = opts.dir !== undefined ? resolve(opts.dir) : (record?.downloadedTo ?? record?.download.dir ?? resolve(jobFolderName(job)));
    const before = await verifyJobFolder(client, job, folder, call);
    say(describeCheck(before));
    const todo = framesToRender(before);
    if (!opts.fix || todo.length === 0) {
      if (opts.json) ctx.io.stdout.write(`${JSON.stringify({ jobId, ...checkJson(before) }, null, 2)}\n`);
      else if (todo.length > 0) say([`Render them again with \`renderdrop verify ${jobId} --fix\`.`]);
      return todo.length === 0 ? EXIT.ok : EXIT.framesMissing;
    }
    if (!isTerminalStatus(job.status)) throw new CommandFailedError(`Job ${jobId} is ${job.status}; render its missing frames once it has finished (follow it with \`renderdrop watch\`).`);
    const refusal = await sceneRefusal(record);
    if (refusal !== null) throw new CommandFailedError(`${refusal} Frames to render: ${describeFrames(todo)}.`);
    const fixed = await renderMissing(ctx, { client, journal, record, before, signal: interrupt.signal, say, json: Boolean(opts.json) });
    const after = await verifyJobFolder(client, await client.getJob(jobId, call), folder, call);
    say(describeCheck(after));
    if (opts.json) {
      ctx.io.stdout.write(`${JSON.stringify({ jobId, ...checkJson(after), before: checkJson(before), fix: { jobId: fixed.jobId, frames: todo, state: fixed.state } }, null, 2)}\n`);
    }
    const complete = after.missing.length === 0 && after.broken.length === 0;
    return combineExitCodes([outcomeExitCode(fixed), complete ? EXIT.ok : EXIT.framesMissing]);
  } finally {
    interrupt.dispose();
  }
}

/** Submits the scene again for exactly the frames the folder needs and follows it until they are downloaded. */
async function renderMissing(
  ctx: CliContext,
  o: { client: ApiClient; journal: SubmissionJournal; record: SubmissionRecord | null; before: JobFolderCheck; signal: AbortSignal; say: (lines: string[]) => void; json: boolean },
): Promise<SubmissionOutcome> {
  const { record, frames } = await recordMissingFrames({ journal: o.journal, original: o.record, job: o.before.job, check: o.before });
  o.say([`Rendering ${frames.length === 1 ? 'frame' : 'frames'} ${describeFrames(frames)} of ${record.file.name} again into ${o.before.folder}`]);
  return withRecordRunner(ctx, { journal: o.journal, signal: o.signal, json: o.json, name: record.file.name }, async (runner) => {
    const started = await runner.start(record, o.client);
    if (!('handedOff' in started)) return started;
    const [outcome] = await runner.follow([started]);
    return outcome!;
  });
}

/** Runs `use` with a submission runner that sends a recorded submission without asking, its progress on the terminal (stderr with `--json`). */
export async function withRecordRunner<T>(ctx: CliContext, o: { journal: SubmissionJournal; signal: AbortSignal; json: boolean; name: string }, use: (runner: SubmissionRunner) => Promise<T>): Promise<T> {
  const stream = o.json ? ctx.io.stderr : ctx.io.stdout;
  const display = new LiveDisplay(stream, { live: Boolean(stream.isTTY) });
  const runner = new SubmissionRunner({
    confirm: ctx.prompt.confirm,
    choose: ctx.prompt.choose,
    journal: o.journal,
    display,
    signal: o.signal,
    yes: true,
    canPrompt: false,
    defaultDownloadRoot: effectiveDownloadDir(ctx.settings().get()),
    nameWidth: Math.min(40, Math.max(8, o.name.length)),
  });
  try {
    return await use(runner);
  } finally {
    runner.close();
    display.close();
  }
}
