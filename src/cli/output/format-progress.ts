import type { PackProgress } from '../../blend/pack';
import type { DownloadProgress } from '../../core/download';
import type { TransferProgress } from '../../core/transfer';
import { RateLimitedError, serializeError } from '../../core/errors';
import { formatBytes, formatDuration, formatRate, percent, reusedWords } from '../../shared/text';

/** A text progress bar of `width` cells inside brackets, e.g. `[=======>    ]`. */
export function progressBar(fraction: number, width = 20): string {
  const clamped = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  const full = Math.floor(clamped * width);
  if (full >= width) return `[${'='.repeat(width)}]`;
  const head = clamped > 0 ? '>' : '';
  return `[${'='.repeat(full)}${head}${' '.repeat(width - full - head.length)}]`;
}

/** An upload's progress: bar, percentage, bytes, rate and time left. */
export function formatTransfer(progress: TransferProgress, options: { bar?: boolean } = {}): string {
  const parts: string[] = [];
  const total = progress.total;
  if (options.bar !== false && total) parts.push(progressBar(progress.bytes / total));
  parts.push(total ? `${percent(progress.bytes, total)}%`.padStart(4) : '');
  parts.push(total ? `${formatBytes(progress.bytes)} of ${formatBytes(total)}` : formatBytes(progress.bytes));
  if (progress.rate > 0) parts.push(formatRate(progress.rate));
  if (!progress.done && progress.etaSeconds !== null) parts.push(`${formatDuration(progress.etaSeconds)} left`);
  parts.push(reusedWords(total, progress.reused) ?? '');
  return parts.filter((p) => p !== '').join('  ');
}

/** Packing's progress: bar, percentage, files, bytes and the file being written. */
export function formatPack(progress: PackProgress, options: { bar?: boolean } = {}): string {
  const fraction = progress.bytesTotal > 0 ? progress.bytesDone / progress.bytesTotal : 1;
  const parts = [
    options.bar !== false ? progressBar(fraction) : null,
    `${percent(progress.bytesDone, progress.bytesTotal)}%`.padStart(4),
    `${progress.filesDone}/${progress.filesTotal} files`,
    `${formatBytes(progress.bytesDone)} of ${formatBytes(progress.bytesTotal)}`,
    progress.entry,
  ];
  return parts.filter((p) => p !== null).join('  ');
}

/** A job's frame progress: bar and `done/total frames`. */
export function formatFrameProgress(completed: number, total: number, options: { bar?: boolean } = {}): string {
  const counts = `${completed}/${total} frames`;
  if (options.bar === false || total <= 0) return counts;
  return `${progressBar(completed / total)}  ${counts}`;
}

/** Frames of a rendering job already in its folder: `12 of 240 frames on disk`. */
export function formatFramesOnDisk(onDisk: number, total: number): string {
  return total > 0 ? `${onDisk} of ${total} frames on disk` : `${onDisk} ${onDisk === 1 ? 'frame' : 'frames'} on disk`;
}

/** A job download's progress: bar over files, files, bytes and rate. */
export function formatDownload(progress: DownloadProgress, options: { bar?: boolean } = {}): string {
  const parts: string[] = [];
  if (options.bar !== false && progress.filesTotal > 0) parts.push(progressBar(progress.filesDone / progress.filesTotal));
  parts.push(`${progress.filesDone}/${progress.filesTotal} files`);
  parts.push(formatBytes(progress.bytes));
  if (progress.rate > 0 && !progress.done) parts.push(formatRate(progress.rate));
  return parts.join('  ');
}

/** The line for a progress read that failed and is tried again in `retryInMs`. */
export function formatTrackerRetry(error: unknown, retryInMs: number): string {
  const wait = formatDuration(retryInMs / 1000);
  if (error instanceof RateLimitedError) return `Rate limited by the server (429); reading job progress again in ${wait}.`;
  return `Could not read job progress (${serializeError(error).message}) Trying again in ${wait}.`;
}
