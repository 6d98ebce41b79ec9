import type { SubmissionView } from '../../../shared/contract';
import { command } from '../../lib';
import { formatBytes, formatDuration, formatRate, percent, reusedWords } from '../../../shared/text';
import { type DroppedFile, useSubmissionsStore, useTransfersStore } from '../../stores';
import { MiddleEllipsis } from '../common/middle-ellipsis';
import { MissingFilesChoice, PackingLine } from '../review/packing-summary';
import { ProgressBar } from '../common/progress-bar';
import type { RowPlacement } from './queue-row';
import { RowMenu, type RowAction } from './row-menu';
import { ScenePicker } from '../review/scene-picker';

const PHASE_TEXT: Record<SubmissionView['phase'], string> = {
  packing: 'Packing',
  'missing-files': 'Files missing',
  uploading: 'Uploading',
  'choose-scene': 'Choose the scene',
  validating: 'Checking',
  review: 'Ready to review',
  starting: 'Starting',
  rendering: 'In the queue',
  downloading: 'Downloading',
  done: 'Done',
  failed: 'Stopped',
  canceled: 'Canceled',
  discarded: 'Discarded',
};

/** The list item of a file's row: named by the file, marked when it stopped with an error. */
function fileRowProps(name: string, error: boolean, place: RowPlacement) {
  return {
    role: 'listitem',
    'aria-label': name,
    className: `row row-submission ${error ? 'row-error' : ''}`,
    'data-row-index': place.index,
    'data-index': place.index,
    tabIndex: place.tabbable ? 0 : -1,
    ref: place.measure,
    style: place.style,
  };
}

/** A file's empty thumbnail, name and size, before it is a job. */
function FileRowName(props: { name: string; size: number }) {
  return (
    <>
      <div className="row-thumb" aria-hidden="true">
        <span className="row-thumb-empty" />
      </div>
      <div className="row-name-cell">
        <span className="row-name">
          <MiddleEllipsis text={props.name} />
        </span>
        <span className="row-meta">{formatBytes(props.size)}</span>
      </div>
    </>
  );
}

/** A dropped file being handed to Renderdrop, or refused: a row of the queue like any job. */
export function DroppedRow(props: { file: DroppedFile; place: RowPlacement }) {
  const { file, place } = props;
  const rejected = file.status === 'rejected';
  const dismiss = () => useSubmissionsStore.getState().dismissDropped(file.key);
  return (
    <div {...fileRowProps(file.name, rejected, place)}>
      <FileRowName name={file.name} size={file.size} />
      <div className="row-status">
        <span className={`badge ${rejected ? 'badge-failed' : 'badge-validating'}`}>{rejected ? 'Not sent' : 'Reading'}</span>
      </div>
      <div className="row-progress">
        {!rejected && (
          <>
            <ProgressBar value={percent(file.sent, file.size)} label={`Handing ${file.name} to Renderdrop`} text={`${formatBytes(file.sent)} of ${formatBytes(file.size)}`} />
            <span className="row-sub">{`${formatBytes(file.sent)} of ${formatBytes(file.size)}`}</span>
          </>
        )}
      </div>
      <div className="row-time" />
      <div className="row-actions">
        {rejected ? (
          <button type="button" className="row-primary" onClick={dismiss} aria-label={`Dismiss ${file.name}`}>
            Dismiss
          </button>
        ) : (
          <span className="row-primary" />
        )}
        <RowMenu actions={rejected ? [{ id: 'dismiss', label: 'Dismiss', run: dismiss }] : []} name={file.name} />
      </div>
      {rejected && (
        <p className="row-wide hint hint-error" role="alert">
          Not sent: {file.error}
        </p>
      )}
    </div>
  );
}

/** A submission on its way to the farm (packing, uploading, being checked), or stopped with an error. */
export function SubmissionRow(props: { submission: SubmissionView; place: RowPlacement }) {
  const { submission: s, place } = props;
  const upload = useTransfersStore((t) => t.byId[`upload:${s.id}`]);
  const pack = useTransfersStore((t) => t.byId[`pack:${s.id}`]);
  const failed = s.phase === 'failed';
  const actions: RowAction[] = [];
  if (s.phase === 'review') actions.push({ id: 'review', label: 'Review', run: () => useSubmissionsStore.getState().openReview(s.id) });
  if (failed && s.canRetry) actions.push({ id: 'retry', label: 'Retry', run: () => void command('submissions.retry', { submissionId: s.id }, { what: `retry ${s.fileName}` }) });
  if (failed) actions.push({ id: 'dismiss', label: 'Dismiss', run: () => void command('submissions.dismiss', { submissionId: s.id }, { what: `dismiss ${s.fileName}` }) });
  const primary = actions[0] ?? null;

  let bar: { value: number; label: string; text: string } | null = null;
  if (s.phase === 'packing') {
    bar = { value: pack?.total ? percent(pack.bytes, pack.total) : 0, label: `Packing of ${s.fileName}`, text: pack?.total ? `${formatBytes(pack.bytes)} of ${formatBytes(pack.total)}` : 'Reading which files the scene uses' };
  } else if (s.phase === 'uploading') {
    const total = upload?.total ?? s.size;
    bar = { value: upload ? percent(upload.bytes, total) : 0, label: `Upload of ${s.fileName}`, text: upload ? `${reusedWords(total, upload.reused) ?? ''}${upload.reused ? ' · ' : ''}${formatBytes(upload.bytes)} of ${formatBytes(total)} · ${formatRate(upload.rate)}` : 'Preparing the upload' };
  } else if (s.phase === 'validating') {
    bar = { value: 0, label: `Check of ${s.fileName}`, text: 'The farm is reading the scene' };
  }
  const eta = s.phase === 'uploading' && upload?.etaSeconds != null ? `${formatDuration(upload.etaSeconds)} left` : '';

  return (
    <div {...fileRowProps(s.fileName, failed, place)}>
      <FileRowName name={s.fileName} size={s.size} />
      <div className="row-status">
        <span className={`badge ${failed ? 'badge-failed' : s.phase === 'review' || s.phase === 'missing-files' ? 'badge-validated' : 'badge-validating'}`}>{phaseText(s)}</span>
      </div>
      <div className="row-progress">
        {bar && (
          <>
            <ProgressBar value={bar.value} label={bar.label} text={bar.text} />
            <span className="row-sub">{bar.text}</span>
          </>
        )}
      </div>
      <div className="row-time">{eta}</div>
      <div className="row-actions">
        {primary ? (
          <button type="button" className={`row-primary ${primary.id === 'review' ? 'primary' : ''}`} onClick={primary.run} aria-label={`${primary.label} ${s.fileName}`}>
            {primary.label}
          </button>
        ) : (
          <span className="row-primary" />
        )}
        <RowMenu actions={actions} name={s.fileName} />
      </div>
      {(s.phase === 'packing' || s.phase === 'missing-files' || s.phase === 'uploading') && s.packing && s.packing.files > 1 && (
        <div className="row-wide">
          <PackingLine packing={s.packing} />
        </div>
      )}
      {s.phase === 'missing-files' && (
        <div className="row-wide">
          <MissingFilesChoice submission={s} />
        </div>
      )}
      {s.scenes && !failed && (
        <div className="row-wide">
          <ScenePicker submission={s} scenes={s.scenes} />
        </div>
      )}
      {failed && (
        <p className="row-wide hint hint-error" role="alert">
          {s.error?.message ?? 'Stopped.'}
        </p>
      )}
    </div>
  );
}

/** The badge's words: a scene held only for private files is waiting for a choice, not missing anything. */
function phaseText(s: SubmissionView): string {
  if (s.phase === 'missing-files' && s.packing && s.packing.missing.length === 0 && (s.packing.privateFiles?.length ?? 0) > 0) return 'Needs a choice';
  return PHASE_TEXT[s.phase];
}
