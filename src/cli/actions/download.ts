import { join, resolve } from 'node:path';
import { downloadJobOutputs, jobFolderName } from '../../core/download';
import { AbortError, isAbort } from '../../core/errors';
import { effectiveDownloadDir } from '../../core/settings';
import { countOf, formatBytes } from '../../shared/text';
import { isTerminalStatus, type Job, needsReview } from '../../shared/api';
import { CommandFailedError } from '../cli-errors';
import { endedEarlyNote, formatDownload, LiveDisplay, shortId } from '../output';
import { safeText } from '../terminal';
import { type CliContext, resolveJobId } from '../context';
import { followRenderingJob } from './follow-frames';

/**
 * `renderdrop download <id>`: the job's outputs into its folder; with `--follow`, a job still
 * rendering is followed to its end with its frames coming into the folder as they are rendered.
 */
export async function download(ctx: CliContext, typed: string, opts: { dir?: string; json?: boolean; follow?: boolean }): Promise<void> {
  const client = await ctx.client();
  const interrupt = ctx.listenForInterrupt();
  const progressStream = opts.json ? ctx.io.stderr : ctx.io.stdout;
  const display = new LiveDisplay(progressStream, { live: Boolean(progressStream.isTTY) });
  try {
    const call = { signal: interrupt.signal };
    const jobId = await resolveJobId(client, typed, call);
    let job = await client.getJob(jobId, call);
    if (!isTerminalStatus(job.status) && !opts.follow) {
      throw new CommandFailedError(`Job ${jobId} is ${job.status}; its outputs can be downloaded once it has finished. Add --follow to get its frames as they render.`);
    }
    if (needsReview(job.status)) throw waitsForStart(job);
    const journal = await ctx.journal();
    const record = (await journal.list()).filter((r) => r.jobId === jobId && r.baseUrl === client.baseUrl).at(-1) ?? null;
    const dir = opts.dir !== undefined ? join(resolve(opts.dir), jobFolderName(job)) : (record?.download.dir ?? join(record?.download.root ?? effectiveDownloadDir(ctx.settings().get()), jobFolderName(job)));
    if (!isTerminalStatus(job.status)) {
      job = await followRenderingJob({ client, job, dir, display, signal: interrupt.signal }).catch((error: unknown) => {
        if (isAbort(error)) throw new AbortError(`Stopped following job ${jobId}; the frames on disk stay. Run \`renderdrop download --follow ${jobId}\` again to go on.`);
        throw error;
      });
      if (needsReview(job.status)) throw waitsForStart(job);
    }
    const result = await downloadJobOutputs({
      client,
      jobId,
      dir,
      signal: interrupt.signal,
      onProgress: (progress) => display.update(jobId, `${shortId(jobId)}  downloading  ${formatDownload(progress, { bar: display.live })}`),
    }).catch((error: unknown) => {
      if (isAbort(error)) throw new AbortError(`Download stopped. Run \`renderdrop download ${jobId}\` again to resume it.`);
      throw error;
    });
    display.finish(jobId, null);
    if (record && record.step === 'completed' && record.ending === null && (record.download.dir === null || resolve(record.download.dir) === resolve(dir))) {
      await journal.advance(record.id, 'downloaded', { downloadedTo: result.dir, download: { ...record.download, wanted: true, dir: result.dir } });
    }
    const skipped = result.files.filter((f) => f.skipped).length;
    if (opts.json) {
      ctx.io.stdout.write(`${JSON.stringify({ jobId, status: job.status, dir: result.dir, bytes: result.bytes, files: result.files }, null, 2)}\n`);
      const note = endedEarlyNote(job, result.files.length);
      if (note) ctx.io.stderr.write(safeText(note) + '\n');
    } else {
      const already = skipped > 0 ? ` (${skipped} already there)` : '';
      ctx.io.stdout.write(safeText(`Downloaded ${countOf(result.files.length, 'file')}, ${formatBytes(result.bytes)}, to ${result.dir}${already}.`) + '\n');
      const note = endedEarlyNote(job, result.files.length);
      if (note) ctx.io.stdout.write(safeText(note) + '\n');
    }
  } finally {
    display.close();
    interrupt.dispose();
  }
}

/** A job followed for its frames that waits for someone to start its render. */
function waitsForStart(job: Job): CommandFailedError {
  return new CommandFailedError(`Job ${job.id} waits for its render to be started (it is ${job.status}); start it where it was submitted (the app, or \`renderdrop resume\`), then follow it again.`);
}
