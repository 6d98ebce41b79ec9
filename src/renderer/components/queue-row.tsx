import { memo, type CSSProperties } from 'react';
import { isActiveStatus, needsReview } from '../../shared/api/job-status';
import type { JobSummary } from '../../shared/contract/job-views';
import { command } from '../lib/command';
import { formatDuration, percent, secondsBetween } from '../lib/format';
import { cancelJob, submitAgain } from '../lib/job-actions';
import { useDetailStore } from '../stores/detail-store';
import { useQueueStore } from '../stores/queue-store';
import { ProgressBar } from './progress-bar';
import { StatusBadge } from './status-badge';

/** One job in the queue: a list item named by its scene file. */
export const QueueRow = memo(function QueueRow(props: { job: JobSummary; selected: boolean; now: number; style: CSSProperties }) {
  const { job } = props;
  const active = isActiveStatus(job.status);
  const frames = job.totalFrames > 0 ? `${job.completedFrames} / ${job.totalFrames} frames` : active ? 'waiting for frames' : '–';
  const spent = formatDuration(secondsBetween(job.startedAt, job.endedAt, props.now));
  const value = job.status === 'completed' ? 100 : percent(job.completedFrames, job.totalFrames);
  const open = () => {
    useQueueStore.getState().select(job.id);
    void useDetailStore.getState().open(job.id);
  };
  return (
    <div role="listitem" aria-label={job.fileName} className={`row ${props.selected ? 'row-selected' : ''}`} data-status={job.status} style={props.style}>
      <button type="button" className="row-name" onClick={open} aria-label={`Details of ${job.fileName}`}>
        {job.fileName}
      </button>
      <StatusBadge status={job.status} />
      <div className="row-progress">
        <ProgressBar value={value} label={`Progress of ${job.fileName}`} text={frames} tone={job.status === 'failed' ? 'error' : job.status === 'completed' ? 'done' : 'normal'} />
        <span className="row-frames">{frames}</span>
      </div>
      <span className="row-time" title="Time spent rendering">
        {spent}
      </span>
      <span className="row-download">{downloadText(job)}</span>
      <div className="row-actions">
        {(active || needsReview(job.status)) && (
          <button type="button" onClick={() => void cancelJob(job)} aria-label={`Cancel ${job.fileName}`}>
            Cancel
          </button>
        )}
        {(job.status === 'completed' || job.status === 'canceled') && (
          <button type="button" onClick={() => void command('jobs.download', { jobId: job.id }, { what: 'download the outputs' })} aria-label={`Download ${job.fileName} again`}>
            {job.download.state === 'none' ? 'Download' : 'Download again'}
          </button>
        )}
        {job.download.state === 'done' && (
          <button type="button" onClick={() => void command('jobs.openFolder', { jobId: job.id }, { what: 'open the folder' })} aria-label={`Open the folder of ${job.fileName}`}>
            Open folder
          </button>
        )}
        {job.canSubmitAgain && !active && !needsReview(job.status) && (
          <button type="button" onClick={() => void submitAgain(job)} aria-label={`Submit ${job.fileName} again`}>
            Submit again
          </button>
        )}
      </div>
    </div>
  );
});

function downloadText(job: JobSummary): string {
  const d = job.download;
  switch (d.state) {
    case 'downloading':
      return `Downloading ${d.filesDone}/${d.filesTotal || '?'}`;
    case 'queued':
      return job.status === 'completed' ? 'Download waits' : '';
    case 'done':
      return 'Downloaded';
    case 'failed':
      return 'Download failed';
    default:
      return '';
  }
}
