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
  const record = ctx.record();
  const jobId = requireJobId(record);
  let dir = record.download.dir;
  if (dir === null) {
    const root = record.download.root ?? ctx.downloadRoot;
    if (!root) throw new InvalidStateError('No download folder is set. Choose one in Settings or with --download <dir>.');
    const sceneName = record.file.name.replace(/\.(blend|zip)$/i, '');
    dir = join(root, jobFolderName({ id: jobId }, sceneName));
    await ctx.save({ download: { ...record.download, wanted: true, dir } });
  }
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
