import { join } from 'node:path';
import { jobFolderName } from '../../download';
import { InvalidStateError } from '../../errors';
import { requireJobId } from './require-fields';
import type { StepContext } from '../step-context';

/**
 * `completed` -> `downloaded`: fixes the output folder in the record first (so a resumed download
 * continues in the same one), then fetches every output, resuming partial files.
 */
export async function downloadStep(ctx: StepContext): Promise<void> {
  const jobId = requireJobId(ctx.record());
  const dir = await fixDownloadDir(ctx);
  const result = await ctx.download({
    client: ctx.client,
    jobId,
    dir,
    onProgress: (progress) => ctx.emit('download', progress),
    clock: ctx.clock,
    ...(ctx.downloadConcurrency !== undefined ? { concurrency: ctx.downloadConcurrency } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  await ctx.save({ step: 'downloaded', downloadedTo: result.dir });
}

/** The record's output folder, fixed in the record the first time (so every later run uses the same one). */
export async function fixDownloadDir(ctx: StepContext): Promise<string> {
  const record = ctx.record();
  if (record.download.dir !== null) return record.download.dir;
  const root = record.download.root ?? ctx.downloadRoot;
  if (!root) throw new InvalidStateError('No download folder is set. Choose one in Settings or with --download <dir>.');
  const sceneName = record.file.name.replace(/\.(blend|zip)$/i, '');
  const dir = join(root, jobFolderName({ id: requireJobId(record) }, sceneName));
  await ctx.save({ download: { ...record.download, wanted: true, dir } });
  return dir;
}
