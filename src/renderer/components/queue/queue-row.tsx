import { memo, useEffect, useState, type CSSProperties, type Ref } from 'react';
import { isActiveStatus, needsReview } from '../../../shared/api';
import type { JobSummary, SubmissionView } from '../../../shared/contract';
import { estimateBasisSentence, isWaitingInLine, renderClockOf, rowTimeText } from '../../../shared/render';
import { cancelJob, command, formatWhen, removeFromList, renderFramesAgain, type SceneRun, submitAgain } from '../../lib';
import { countOf, formatDuration, percent } from '../../../shared/text';
import { useDetailStore, usePreviewsStore, usePriorityStore, useQueueStore, useSubmissionsStore } from '../../stores';
import { MiddleEllipsis } from '../common/middle-ellipsis';
import { ProgressBar } from '../common/progress-bar';
import { RowMenu, type RowAction } from './row-menu';
import { StatusBadge } from '../common/status-badge';

/** What every queue row is given by the list. */
export interface RowPlacement {
  index: number;
  /** Whether Tab reaches this row (one row of the list at a time). */
  tabbable: boolean;
  style: CSSProperties;
  measure: Ref<HTMLDivElement>;
}

/** What tells one run of a scene from the others, for its accessible name: frames, when it was sent, its short id. */
function runDifference(job: JobSummary, now: number): string {
  return [job.totalFrames > 0 ? countOf(job.totalFrames, 'frame') : null, `sent ${formatWhen(job.createdAt, now)}`, `job ${job.id.slice(0, 8)}`].filter(Boolean).join(', ');
}

/** Opens a job's details and marks its row selected. */
export function openJob(jobId: string): void {
  useQueueStore.getState().select(jobId);
  void useDetailStore.getState().open(jobId);
}

/** One job in the queue: thumbnail, name and what tells it apart, status, progress, time, actions. */
export const QueueRow = memo(function QueueRow(props: {
  job: JobSummary;
  submission: SubmissionView | null;
  selected: boolean;
  /** Whether the job is ticked for a bulk action. */
  checked: boolean;
  /** Which run of its scene this is, when the queue groups the scene's runs. */
  run?: SceneRun | undefined;
  now: number;
  place: RowPlacement;
}) {
  const { job, place, run } = props;
  const name = run ? `${job.fileName}, run ${run.number} of ${run.of}` : job.fileName;
  const [menuOpen, setMenuOpen] = useState(false);
  const active = isActiveStatus(job.status);
  const value = job.status === 'completed' ? 100 : percent(job.completedFrames, job.totalFrames);
  const { primary, all } = jobActions(job, props.submission);
  if (run && run.runs.length > 0) {
    const ids = run.runs.map((r) => r.id);
    all.push({ id: 'choose-runs', label: `Choose all ${run.of} runs`, run: () => useQueueStore.getState().setChecked(ids, true) });
  }
  return (
    <div
      role="listitem"
      aria-label={name}
      className={`row ${props.selected ? 'row-selected' : ''} ${run ? 'row-run' : ''}`}
      data-status={job.status}
      data-row-index={place.index}
      data-index={place.index}
      data-job-id={job.id}
      tabIndex={place.tabbable ? 0 : -1}
      ref={place.measure}
      style={{ ...place.style, zIndex: menuOpen ? 2 : undefined }}
    >
      <RowCheck id={job.id} name={name} checked={props.checked} />
      <Thumbnail job={job} />
      <div className="row-name-cell">
        <button type="button" className="row-name" tabIndex={-1} onClick={() => openJob(job.id)} aria-label={run ? `Details of ${name}: ${runDifference(job, props.now)}` : `Details of ${job.fileName}`}>
          <MiddleEllipsis text={job.fileName} />
        </button>
        <span className="row-meta">
          {run && run.runs.length > 0 && <RunsToggle run={run} fileName={job.fileName} />}
          {run && <span className="row-run-number">Run {run.number} · </span>}
          {formatWhen(job.createdAt, props.now)}
          {job.totalFrames > 0 && ` · ${countOf(job.totalFrames, 'frame')}`}
          {' · '}
          <span title={`Job ${job.id}`}>{job.id.slice(0, 8)}</span>
        </span>
      </div>
      <div className="row-status">
        <StatusBadge status={job.status} waiting={isWaitingInLine(job)} />
        {job.warnings.length > 0 && (
          <span className="warning-mark" role="img" aria-label={`Warnings: ${job.warnings.join(', ')}`} title={`Warnings: ${job.warnings.join(', ')}`}>
            ⚠
          </span>
        )}
      </div>
      <div className="row-progress">
        <ProgressBar value={value} label={`Progress of ${job.fileName}`} text={framesText(job)} tone={job.status === 'failed' ? 'error' : job.status === 'completed' ? 'done' : 'normal'} />
        <span className="row-sub">{progressLine(job)}</span>
      </div>
      <div className="row-time">
        <TimeCell job={job} now={props.now} active={active} />
      </div>
      <div className="row-actions">
        {primary ? (
          <button type="button" className="row-primary" onClick={primary.run} aria-label={primary.accessibleName ?? `${primary.label} ${job.fileName}`} title={primary.shortLabel ? primary.label : undefined}>
            {primary.shortLabel ?? primary.label}
          </button>
        ) : (
          <span className="row-primary" />
        )}
        <RowMenu actions={all} name={name} onOpenChange={setMenuOpen} />
      </div>
      <RowNote job={job} />
    </div>
  );
});

/**
 * Across the row, under it: why a waiting job cannot say when it starts (the farm's words, read each
 * time the job is), or the first line of Blender's errors when a completed render printed some.
 */
function RowNote(props: { job: JobSummary }) {
  const why = props.job.waiting?.reason;
  if (why && isWaitingInLine(props.job)) {
    return (
      <p className="row-note row-note-waiting" data-testid="row-waiting">
        {why}
      </p>
    );
  }
  const line = props.job.errorLine;
  if (!line) return null;
  return (
    <p className="row-note" title={`Blender reported: ${line}`}>
      <span aria-hidden="true">⚠ </span>Blender reported: {line}
    </p>
  );
}

/** On the latest run of a scene: folds its earlier runs away, or shows them again. */
function RunsToggle(props: { run: SceneRun; fileName: string }) {
  const { run } = props;
  return (
    <button
      type="button"
      className="runs-toggle"
      aria-expanded={!run.collapsed}
      aria-label={`${run.of} runs of ${props.fileName}`}
      title={run.collapsed ? 'Show the earlier runs' : 'Fold the earlier runs away'}
      onClick={() => useQueueStore.getState().toggleCollapsed(run.scene)}
    >
      <span aria-hidden="true">{run.collapsed ? '▸' : '▾'}</span> {run.of} runs
    </button>
  );
}

/** The tick box that chooses a job for a bulk action. */
export function RowCheck(props: { id: string; name: string; checked: boolean }) {
  return (
    <input
      type="checkbox"
      className="row-check"
      checked={props.checked}
      aria-label={`Choose ${props.name}`}
      onChange={(e) => useQueueStore.getState().setChecked([props.id], e.target.checked)}
    />
  );
}

function Thumbnail(props: { job: JobSummary }) {
  const { job } = props;
  const thumbnail = usePreviewsStore((s) => s.byJob[job.id]);
  const key = job.previewKey;
  useEffect(() => {
    if (key !== null) usePreviewsStore.getState().want(job.id, key);
  }, [job.id, key]);
  return (
    <div className="row-thumb" data-testid="row-thumb">
      {thumbnail?.url ? <img src={thumbnail.url} alt={`Latest frame of ${job.fileName}`} /> : <span className="row-thumb-empty" aria-hidden="true" />}
    </div>
  );
}

function TimeCell(props: { job: JobSummary; now: number; active: boolean }) {
  const { job } = props;
  const time = rowTimeText(renderClockOf(job, props.now));
  if (job.estimate && time === null) {
    return (
      <span className="row-estimate" title={estimateBasisSentence(job.estimate)}>
        about {formatDuration(job.estimate.seconds)}
        <span className="row-sub">estimate</span>
      </span>
    );
  }
  const download = props.active ? '' : downloadText(job);
  return (
    <span className="row-clock" data-testid="row-time" title={time?.title}>
      <span>{time?.main ?? '–'}</span>
      {time?.sub && <span className="row-sub">{time.sub}</span>}
      {download !== '' && <span className="row-sub">{download}</span>}
    </span>
  );
}

function framesText(job: JobSummary): string {
  if (job.totalFrames > 0) return `${job.completedFrames} of ${job.totalFrames} frames`;
  return isActiveStatus(job.status) ? 'waiting for frames' : 'no frames';
}

/** The line under the bar: frames done (and those already in the job's folder), or that they are awaited. */
function progressLine(job: JobSummary): string {
  const onDisk = isActiveStatus(job.status) && job.download.state === 'downloading' && job.download.filesDone > 0 ? ` · ${job.download.filesDone} on disk` : '';
  if (job.totalFrames > 0) return `${job.completedFrames} / ${job.totalFrames} frames${onDisk}`;
  return isActiveStatus(job.status) ? 'waiting for frames' : '';
}

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

/** The actions of a job's row: the one shown as a button when there is room, and every one for the menu. */
function jobActions(job: JobSummary, submission: SubmissionView | null): { primary: RowAction | null; all: RowAction[] } {
  const active = isActiveStatus(job.status);
  const all: RowAction[] = [];
  if (submission?.phase === 'review') all.push({ id: 'review', label: 'Review', run: () => useSubmissionsStore.getState().openReview(submission.id) });
  if (active || needsReview(job.status)) all.push({ id: 'cancel', label: 'Cancel', run: () => void cancelJob(job) });
  if (job.download.state === 'done') all.push({ id: 'open', label: 'Open folder', run: () => void command('jobs.openFolder', { jobId: job.id }, { what: 'open the folder' }) });
  if (job.status === 'completed' || job.status === 'canceled') {
    all.push({ id: 'download', label: job.download.state === 'none' ? 'Download' : 'Download again', run: () => void command('jobs.download', { jobId: job.id }, { what: 'download the outputs' }) });
  }
  if (job.status === 'failed' && job.totalFrames > 0) {
    all.push({ id: 'retry', label: 'Retry failed frames', shortLabel: 'Retry', accessibleName: `Retry failed frames of ${job.fileName}`, run: () => void renderFramesAgain(job, { failed: true }) });
  }
  if (job.canSubmitAgain && !active && !needsReview(job.status)) all.push({ id: 'again', label: 'Submit again', run: () => void submitAgain(job) });
  if (typeof job.priority === 'number' && active && !needsReview(job.status)) {
    all.push({ id: 'priority', label: 'Priority…', accessibleName: `Priority of ${job.fileName}`, run: () => usePriorityStore.getState().open(job.id) });
  }
  all.push({ id: 'details', label: 'Details', run: () => openJob(job.id) });
  all.push({ id: 'remove', label: 'Remove from list', run: () => void removeFromList([job]) });
  // A finished render's folder comes first; after a failure or a cancel, sending it again does.
  const order = job.status === 'completed' ? ['review', 'cancel', 'open', 'download', 'again'] : ['review', 'cancel', 'retry', 'again', 'open', 'download'];
  const primary = order.map((id) => all.find((a) => a.id === id)).find((a) => a !== undefined) ?? null;
  return { primary, all };
}
