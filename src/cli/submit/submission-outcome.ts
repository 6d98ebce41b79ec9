import type { SubmissionEnding, SubmissionRecord, SubmissionStep } from '../../core/journal';
import type { PrivateFile } from '../../core/packing';
import type { JobStatus } from '../../shared/api';
import type { JobWarning } from '../output';
import { EXIT } from '../exit-codes';
import type { ExitCode } from '../exit-code-for';

/** How a submission stands when the command is done with it. */
export type OutcomeState = 'validated' | 'rendering' | 'completed' | 'downloaded' | 'failed' | 'canceled' | 'declined' | 'error' | 'interrupted';

/** What validation found, as `submit --validate-only --json` prints it: the summary's rows and warnings. */
export interface ReviewSummary {
  jobId: string;
  /** Label and value, as the terminal shows them (Engine, Frames, Resolution, Samples, ...). */
  rows: [string, string][];
  warnings: string[];
  frameCount: number | null;
  /** Why the scene cannot render with the settings asked for, or null. */
  problem: string | null;
  /** A Renderdrop node's render time of the job on that farm (from its sample render), in seconds with its likely range; null on another farm or when none came. */
  estimate: { seconds: number; low: number; high: number } | null;
}

/** The result of one file or journal entry, as `submit --json` and `resume --json` print it. */
export interface SubmissionOutcome {
  file: string;
  fileName: string;
  submissionId: string | null;
  jobId: string | null;
  jobStatus: JobStatus | null;
  step: SubmissionStep | null;
  ending: SubmissionEnding | null;
  state: OutcomeState;
  downloadedTo: string | null;
  downloadedFiles: number | null;
  error: { kind: string; message: string } | null;
  /** Files outside the scene's folder that look private: left out, or sent as `--allow-outside` allowed (`allowed`). */
  privateFiles: PrivateFile[];
  /** With `--validate-only`: what validation found (the submission waits for `submit --yes`). */
  review?: ReviewSummary;
  /**
   * The job's warnings as the farm last told them (missing files, scene Python, Blender errors in the
   * render's log...; notes have code `python-runs`): the one list every surface shows. Empty without a job.
   */
  warnings: JobWarning[];
  /** A scene sent in chunks to a Renderdrop node: the bytes that travelled and those the farm already had (absent: sent whole). */
  upload?: { bytesSent: number; bytesReused: number };
}

/** The exit code an outcome contributes. */
export function outcomeExitCode(outcome: Pick<SubmissionOutcome, 'state' | 'error'>): ExitCode {
  switch (outcome.state) {
    case 'failed':
    case 'canceled':
      return EXIT.jobFailed;
    case 'error':
      return outcome.error?.kind === 'usage' ? EXIT.usage : EXIT.failure;
    case 'interrupted':
      return EXIT.interrupted;
    default:
      return EXIT.ok;
  }
}

/** The outcome of a journal record that stopped normally (finished, or handed to the server to render). */
export function outcomeOfRecord(record: SubmissionRecord, extra: { jobStatus: JobStatus | null; downloadedFiles: number | null; warnings?: JobWarning[] }): SubmissionOutcome {
  let state: OutcomeState;
  if (record.ending === 'failed') state = 'failed';
  else if (record.ending === 'canceled') state = 'canceled';
  else if (record.ending === 'declined') state = 'declined';
  else if (record.step === 'downloaded') state = 'downloaded';
  else if (record.step === 'completed') state = 'completed';
  else if (record.step === 'validated') state = 'validated';
  else state = 'rendering';
  return {
    file: record.file.path,
    fileName: record.file.name,
    submissionId: record.id,
    jobId: record.jobId,
    jobStatus: extra.jobStatus ?? (state === 'completed' || state === 'downloaded' ? 'completed' : null),
    step: record.step,
    ending: record.ending,
    state,
    downloadedTo: record.downloadedTo,
    downloadedFiles: state === 'downloaded' ? extra.downloadedFiles : null,
    error: record.error,
    privateFiles: record.packing?.privateFiles ?? [],
    warnings: extra.warnings ?? [],
    ...(record.uploadSent ? { upload: record.uploadSent } : {}),
  };
}

/** The outcome of a file that never got a journal record (it failed its checks, or was not reached). */
export function outcomeOfFile(path: string, fileName: string, state: OutcomeState, error: { kind: string; message: string } | null): SubmissionOutcome {
  return { file: path, fileName, submissionId: null, jobId: null, jobStatus: null, step: null, ending: null, state, downloadedTo: null, downloadedFiles: null, error, privateFiles: [], warnings: [] };
}
