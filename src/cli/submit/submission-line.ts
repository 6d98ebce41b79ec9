import type { PackProgress } from '../../blend/pack';
import type { DownloadProgress, FramesOnDisk } from '../../core/download';
import type { LifecyclePhase } from '../../core/lifecycle';
import type { TransferProgress } from '../../core/transfer';
import type { JobStatus } from '../../shared/api';
import { countOf, formatBytes } from '../../shared/text';
import { formatDownload, formatFrameProgress, formatFramesOnDisk, formatPack, formatTransfer, shortId } from '../output';
import { safeText } from '../terminal';

/** Where one submission stands, as far as its progress line is concerned. */
export interface SubmissionLineState {
  name: string;
  /** The lifecycle's phase, or `starting` before the first step is known. */
  phase: 'starting' | LifecyclePhase;
  jobId: string | null;
  status: JobStatus | null;
  pack: PackProgress | null;
  /** The bundle being uploaded instead of the scene alone: its files and size on the wire. */
  bundle: { files: number; bytes: number } | null;
  upload: TransferProgress | null;
  frames: { completedFrames: number; totalFrames: number } | null;
  download: DownloadProgress | null;
  /** Frames already in the output folder while the job renders (absent: not followed). */
  onDisk?: FramesOnDisk | null;
}

/** The progress line of a submission: name, what it is doing, and a bar when `bar` is set. */
export function formatSubmissionLine(state: SubmissionLineState, options: { nameWidth: number; bar: boolean }): string {
  const name = safeText(state.name).padEnd(options.nameWidth);
  const join = statusLine;
  const job = state.jobId ? `job ${shortId(state.jobId)}` : '';
  switch (state.phase) {
    case 'starting':
      return join(name, 'starting');
    case 'packing':
      return join(name, 'packing', state.pack ? formatPack(state.pack, { bar: options.bar }) : '');
    case 'uploading':
      return join(name, 'uploading', state.bundle ? `with ${countOf(state.bundle.files, 'file')} (${formatBytes(state.bundle.bytes)})` : '', state.upload ? formatTransfer(state.upload, { bar: options.bar }) : '');
    case 'choosing-scene':
      return join(name, 'waiting', 'for the scene of the zip to be chosen');
    case 'creating':
      return join(name, 'creating job');
    case 'validating':
      return join(name, 'validating', job);
    case 'review':
      return join(name, state.status ?? 'waiting', job);
    case 'rendering':
    case 'done': {
      const word = state.status ?? 'rendering';
      const frames = state.frames && state.frames.totalFrames > 0 ? formatFrameProgress(state.frames.completedFrames, state.frames.totalFrames, { bar: options.bar }) : '';
      const onDisk = state.onDisk && state.phase === 'rendering' ? formatFramesOnDisk(state.onDisk.onDisk, state.onDisk.totalFrames) : '';
      return join(name, word, frames, onDisk, job);
    }
    case 'downloading':
      return join(name, 'downloading', state.download ? formatDownload(state.download, { bar: options.bar }) : '');
  }
}

/** A line of the submission table: the padded name, a one-word state in its column, then details (made safe to print). */
export function statusLine(name: string, word: string, ...rest: string[]): string {
  return [name, word.padEnd(11), ...rest.map((part) => safeText(part)).filter((part) => part !== '')].join('  ').trimEnd();
}
