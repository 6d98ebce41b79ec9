import { statusLine } from './submission-line';
import type { SubmissionOutcome } from './submission-outcome';

/** The last line printed for a submission: its file name padded to `nameWidth`, how it ended, and what to do next. */
export function outcomeLine(outcome: SubmissionOutcome, nameWidth: number): string {
  const name = outcome.fileName.padEnd(nameWidth);
  const job = outcome.jobId ? `job ${outcome.jobId}` : '';
  switch (outcome.state) {
    case 'downloaded': {
      const count = outcome.downloadedFiles;
      return statusLine(name, 'downloaded', `${count ?? 'all'} ${count === 1 ? 'file' : 'files'} to ${outcome.downloadedTo}`);
    }
    case 'validated':
      return statusLine(name, 'validated', `${job}; submit it again with --yes to render it`);
    case 'completed':
      return statusLine(name, 'completed', job);
    case 'rendering':
      return statusLine(name, outcome.jobStatus && outcome.jobStatus !== 'validated' ? outcome.jobStatus : 'rendering', job);
    case 'failed':
      return statusLine(name, 'failed', outcome.error?.message ?? job);
    case 'canceled':
      return statusLine(name, 'canceled', job);
    case 'declined':
      return statusLine(name, 'declined', 'not rendered');
    case 'interrupted':
      return statusLine(name, 'stopped', outcome.step ? `at ${outcome.step}` : 'before it started');
    case 'error': {
      if (outcome.error?.kind === 'busy') return statusLine(name, 'skipped', outcome.error.message);
      const resumable = outcome.submissionId !== null && outcome.ending === null && outcome.error?.kind !== 'usage';
      return statusLine(name, 'error', `${outcome.error?.message ?? 'unknown error'}${resumable ? ' Saved: `renderdrop resume` continues it.' : ''}`);
    }
  }
}
