import { resolve } from 'node:path';
import type { ApiClient } from '../../core/api';
import { isAbort, serializeError } from '../../core/errors';
import { reached, type SubmissionJournal, type SubmissionRecord } from '../../core/journal';
import { type Connection, effectiveDownloadDir } from '../../core/settings';
import { UsageError } from '../cli-errors';
import { combineExitCodes, type ExitCode } from '../exit-code-for';
import { EXIT } from '../exit-codes';
import { checkFrameOrder, checkStudioAsks, type CliContext, renderConfigFrom, type RenderOverrides } from '../context';
import { projectFor, projectLine } from '../packing';
import { formatTable, formatTimestamp, LiveDisplay } from '../output';
import { type Interrupt, safeText } from '../terminal';
import { describeStep, type HandedOff, outcomeExitCode, outcomeOfFile, prepareRecord, type SubmissionOutcome, SubmissionRunner } from '../submit';

interface SubmitOptions extends RenderOverrides {
  scene?: string;
  yes?: boolean;
  new?: boolean;
  wait?: boolean;
  download?: string;
  json?: boolean;
  /** False with --no-pack. */
  pack?: boolean;
  /** `--allow-outside`: files held at the packing boundary that may travel, or folders holding them (absolute). */
  allowOutside?: string[];
  /** `--project`: the folder holding the scenes whose files travel without a question (remembered per scene). */
  project?: string;
  /** Stop once the server has validated the scene (a later `submit --yes` of the same file renders it). */
  validateOnly?: boolean;
}

interface ResumeOptions {
  yes?: boolean;
  json?: boolean;
  list?: boolean;
}

/** A running submit or resume: where progress goes, the Ctrl-C signal, the runner. */
interface Session {
  display: LiveDisplay;
  interrupt: Interrupt;
  runner: SubmissionRunner;
  close(): void;
}

const RESUME_HINT = 'Run `renderdrop resume` to continue where it stopped; jobs already sent keep rendering on the server.';


/** `renderdrop submit <files...>`: sends each scene through the submission lifecycle. */
export async function submit(ctx: CliContext, files: string[], opts: SubmitOptions): Promise<ExitCode> {
  const renderConfig = renderConfigFrom({
    preset: opts.preset,
    ...(opts.frames !== undefined ? { frames: opts.frames } : {}),
    ...(opts.samples !== undefined ? { samples: opts.samples } : {}),
    ...(opts.percentage !== undefined ? { percentage: opts.percentage } : {}),
    ...(opts.camera !== undefined ? { camera: opts.camera } : {}),
    ...(opts.viewLayer !== undefined ? { viewLayer: opts.viewLayer } : {}),
    ...(opts.format !== undefined ? { format: opts.format } : {}),
    ...(opts.blenderVersion !== undefined ? { blenderVersion: opts.blenderVersion } : {}),
    ...(opts.priority !== undefined ? { priority: opts.priority } : {}),
    ...(opts.requires !== undefined ? { requires: opts.requires } : {}),
    ...(opts.order !== undefined ? { order: opts.order } : {}),
  });
  const canPrompt = Boolean(ctx.io.stdin.isTTY);
  const validateOnly = Boolean(opts.validateOnly);
  if (!opts.yes && !validateOnly && !canPrompt) {
    throw new UsageError('submit shows what it found and asks before rendering, but there is no terminal to ask on. Add --yes to render without asking.');
  }
  const { client, connection } = await connect(ctx, Boolean(opts.json));
  const studioNote = await checkStudioAsks(client, { ...(renderConfig.priority !== undefined ? { priority: renderConfig.priority } : {}), ...(renderConfig.requires ? { requires: renderConfig.requires } : {}) });
  const orderNote = await checkFrameOrder(client, opts.order);
  if (orderNote !== null) delete renderConfig.frameOrder;
  for (const note of [studioNote, orderNote]) if (note !== null) (opts.json ? ctx.io.stderr : ctx.io.stdout).write(`${note}\n`);
  const journal = await ctx.journal();
  const downloadRoot = opts.download !== undefined ? resolve(opts.download) : null;
  const follow = Boolean(opts.wait) || downloadRoot !== null;
  const session = openSession(ctx, journal, { json: Boolean(opts.json), yes: Boolean(opts.yes), canPrompt, names: files.map(baseName), validateOnly });
  const { display, runner } = session;
  const signal = session.interrupt.signal;
  const outcomes: SubmissionOutcome[] = [];
  const started: HandedOff[] = [];
  try {
    for (const file of files) {
      const path = resolve(file);
      if (signal.aborted) {
        outcomes.push(outcomeOfFile(path, baseName(file), 'interrupted', null));
        continue;
      }
      let record: SubmissionRecord;
      try {
        const project = /\.blend$/i.test(path) && opts.pack !== false ? await projectFor(ctx, path, opts.project) : null;
        const projectNote = project === null ? null : projectLine(baseName(file), project);
        if (projectNote !== null) display.print(projectNote);
        record = await prepareRecord(path, {
          journal,
          baseUrl: client.baseUrl,
          profileId: connection.profileId,
          renderConfig,
          downloadRoot,
          scenePath: opts.scene ?? null,
          yes: Boolean(opts.yes) || validateOnly,
          fresh: Boolean(opts.new),
          pack: opts.pack !== false,
          allowOutside: opts.allowOutside ?? [],
          project: project?.project ?? null,
          ask: (question) => ask(ctx, display, question, signal),
          sceneQuestion: { choose: ctx.prompt.choose, canPrompt, signal, display },
          note: (line) => display.print(line),
        });
      } catch (error) {
        const outcome = isAbort(error) ? outcomeOfFile(path, baseName(file), 'interrupted', null) : outcomeOfFile(path, baseName(file), 'error', errorInfo(error));
        if (outcome.error) runner.announce(outcome);
        outcomes.push(outcome);
        continue;
      }
      const result = await runner.start(record, client, renderConfig);
      if ('handedOff' in result) started.push(result);
      else outcomes.push(result);
    }
    if (follow && !signal.aborted) outcomes.push(...(await runner.follow(started)));
    else outcomes.push(...started.map((item) => runner.leftRendering(item)));
  } finally {
    session.close();
  }
  return report(ctx, order(outcomes, files.map((f) => resolve(f))), { json: Boolean(opts.json), followed: follow });
}

/** `renderdrop resume`: continues every unfinished submission. */
export async function resume(ctx: CliContext, opts: ResumeOptions): Promise<ExitCode> {
  const journal = await ctx.journal();
  if (!opts.list) await journal.sweepBundles();
  const records = await journal.listUnfinished();
  if (opts.list) {
    if (opts.json) ctx.io.stdout.write(`${JSON.stringify({ submissions: records }, null, 2)}\n`);
    else if (records.length === 0) ctx.io.stdout.write('No unfinished submissions.\n');
    else {
      const rows = [['SUBMITTED', 'FILE', 'SERVER', 'WHERE IT STOPPED'], ...records.map((r) => [formatTimestamp(r.createdAt), r.file.name, r.baseUrl, describeStep(r)])];
      ctx.io.stdout.write(`${formatTable(rows).join('\n')}\n`);
    }
    return EXIT.ok;
  }
  if (records.length === 0) {
    ctx.io.stdout.write(opts.json ? `${JSON.stringify({ submissions: [] }, null, 2)}\n` : 'Nothing to resume: every submission is finished.\n');
    return EXIT.ok;
  }
  const canPrompt = Boolean(ctx.io.stdin.isTTY);
  if (!opts.yes && !canPrompt && records.some((r) => !reached(r, 'render-requested'))) {
    throw new UsageError('Some submissions still need a go-ahead to render, and there is no terminal to ask on. Add --yes to render them without asking.');
  }
  const session = openSession(ctx, journal, { json: Boolean(opts.json), yes: Boolean(opts.yes), canPrompt, names: records.map((r) => r.file.name) });
  const { display, runner } = session;
  const signal = session.interrupt.signal;
  const outcomes: SubmissionOutcome[] = [];
  const started: HandedOff[] = [];
  try {
    for (const record of records) {
      if (signal.aborted) break;
      let client: ApiClient;
      try {
        client = await ctx.clientForRecord(record);
      } catch (error) {
        const outcome = { ...outcomeOfFile(record.file.path, record.file.name, 'error', errorInfo(error)), submissionId: record.id, jobId: record.jobId, step: record.step };
        runner.announce(outcome);
        outcomes.push(outcome);
        continue;
      }
      display.print(`${record.file.name}: resuming (${describeStep(record)}, submitted ${formatTimestamp(record.createdAt)})`);
      const result = await runner.start(record, client);
      if ('handedOff' in result) started.push(result);
      else outcomes.push(result);
    }
    if (!signal.aborted) outcomes.push(...(await runner.follow(started)));
    else outcomes.push(...started.map((item) => runner.leftRendering(item)));
  } finally {
    session.close();
  }
  if (signal.aborted) {
    for (const record of records) {
      if (!outcomes.some((o) => o.submissionId === record.id)) {
        outcomes.push({ ...outcomeOfFile(record.file.path, record.file.name, 'interrupted', null), submissionId: record.id, jobId: record.jobId, step: record.step });
      }
    }
  }
  return report(ctx, outcomes, { json: Boolean(opts.json), followed: true });
}

/**
 * The server and its client. With --json, a connection that cannot be made (no key) is also printed as
 * `{ "submissions": [], "error": ... }` on stdout, so scripts read why from the same place.
 */
async function connect(ctx: CliContext, json: boolean): Promise<{ client: ApiClient; connection: Connection }> {
  try {
    return { client: await ctx.client(), connection: await ctx.connection() };
  } catch (error) {
    if (json) ctx.io.stdout.write(`${JSON.stringify({ submissions: [], error: serializeError(error) }, null, 2)}\n`);
    throw error;
  }
}

function openSession(ctx: CliContext, journal: SubmissionJournal, o: { json: boolean; yes: boolean; canPrompt: boolean; names: string[]; validateOnly?: boolean }): Session {
  const stream = o.json ? ctx.io.stderr : ctx.io.stdout;
  const display = new LiveDisplay(stream, { live: Boolean(stream.isTTY) });
  const interrupt = ctx.listenForInterrupt();
  ctx.notice = (message) => display.print(message);
  const runner = new SubmissionRunner({
    confirm: ctx.prompt.confirm,
    choose: ctx.prompt.choose,
    journal,
    display,
    signal: interrupt.signal,
    yes: o.yes,
    canPrompt: o.canPrompt,
    defaultDownloadRoot: effectiveDownloadDir(ctx.settings().get()),
    nameWidth: Math.min(40, Math.max(8, ...o.names.map((n) => n.length))),
    validateOnly: Boolean(o.validateOnly),
  });
  return {
    display,
    interrupt,
    runner,
    close: () => {
      runner.close();
      display.close();
      interrupt.dispose();
    },
  };
}

async function ask(ctx: CliContext, display: LiveDisplay, question: string, signal: AbortSignal): Promise<boolean> {
  display.suspend();
  try {
    return await ctx.prompt.confirm(question, { defaultYes: true, signal });
  } finally {
    display.resume();
  }
}

function report(ctx: CliContext, outcomes: SubmissionOutcome[], o: { json: boolean; followed: boolean }): ExitCode {
  const code = combineExitCodes(outcomes.map(outcomeExitCode));
  if (o.json) ctx.io.stdout.write(`${JSON.stringify({ submissions: outcomes }, null, 2)}\n`);
  const hints: string[] = [];
  if (code === EXIT.interrupted) hints.push(`Stopped. ${RESUME_HINT}`);
  const rendering = outcomes.filter((o) => o.state === 'rendering' && o.jobId);
  if (!o.followed && rendering.length > 0) {
    hints.push(`Follow ${rendering.length === 1 ? 'it' : 'them'} with \`renderdrop watch\`; fetch the frames with \`renderdrop download ${rendering.length === 1 ? rendering[0]!.jobId : '<id>'}\`.`);
  }
  if (hints.length > 0) (o.json ? ctx.io.stderr : ctx.io.stdout).write(`${safeText(hints.join('\n'), { multiline: true })}\n`);
  return code;
}

function order(outcomes: SubmissionOutcome[], paths: string[]): SubmissionOutcome[] {
  return [...outcomes].sort((a, b) => paths.indexOf(a.file) - paths.indexOf(b.file));
}

function errorInfo(error: unknown): { kind: string; message: string } {
  if (error instanceof UsageError) return { kind: 'usage', message: error.message };
  const serialized = serializeError(error);
  return { kind: serialized.kind, message: serialized.message };
}

function baseName(file: string): string {
  return file.split(/[\\/]/).pop() || file;
}
