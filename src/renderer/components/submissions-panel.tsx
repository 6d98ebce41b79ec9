import type { SubmissionView } from '../../shared/contract/submission-views';
import { command } from '../lib/command';
import { formatBytes, formatDuration, formatRate, percent } from '../lib/format';
import { useSubmissionsStore, type DroppedFile } from '../stores/submissions-store';
import { useTransfersStore } from '../stores/transfers-store';
import { MissingFilesChoice, PackingLine } from './packing-summary';
import { ProgressBar } from './progress-bar';
import { SceneChoice } from './scene-choice';

const PHASE_TEXT: Record<SubmissionView['phase'], string> = {
  packing: 'Packing',
  'missing-files': 'Files missing',
  uploading: 'Uploading',
  'choose-scene': 'Choose the scene',
  validating: 'Validating',
  review: 'Ready to review',
  starting: 'Starting the render',
  rendering: 'In the queue',
  downloading: 'Downloading',
  done: 'Done',
  failed: 'Stopped',
  canceled: 'Canceled',
  discarded: 'Discarded',
};

/** Shown while on the way to the queue (before the render starts), and when it stopped with an error. */
const SHOWN: ReadonlySet<SubmissionView['phase']> = new Set(['packing', 'missing-files', 'uploading', 'choose-scene', 'validating', 'review', 'starting', 'failed']);

/** The tray of dropped files and submissions on their way to the queue. */
export function SubmissionsPanel() {
  const dropped = useSubmissionsStore((s) => s.dropped);
  const byId = useSubmissionsStore((s) => s.byId);
  const submissions = Object.values(byId).filter((s) => SHOWN.has(s.phase));
  const pendingDrops = dropped.filter((d) => d.status !== 'accepted' || (d.submissionId !== null && !byId[d.submissionId]));
  if (pendingDrops.length === 0 && submissions.length === 0) return null;
  return (
    <section className="tray" aria-label="Files being sent">
      <ul className="tray-list">
        {pendingDrops.map((d) => (
          <DroppedItem key={d.key} file={d} />
        ))}
        {submissions
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
          .map((s) => (
            <SubmissionItem key={s.id} submission={s} />
          ))}
      </ul>
    </section>
  );
}

function DroppedItem(props: { file: DroppedFile }) {
  const { file } = props;
  const dismiss = () => useSubmissionsStore.getState().dismissDropped(file.key);
  return (
    <li className={`tray-item ${file.status === 'rejected' ? 'tray-item-error' : ''}`} aria-label={file.name}>
      <div className="tray-line">
        <strong>{file.name}</strong>
        <span className="muted">{formatBytes(file.size)}</span>
      </div>
      {file.status === 'rejected' ? (
        <>
          <p className="hint hint-error" role="alert">
            Not sent: {file.error}
          </p>
          <button type="button" onClick={dismiss}>
            Dismiss
          </button>
        </>
      ) : (
        <ProgressBar value={percent(file.sent, file.size)} label={`Handing ${file.name} to Renderdrop`} text={`${formatBytes(file.sent)} of ${formatBytes(file.size)}`} />
      )}
    </li>
  );
}

function SubmissionItem(props: { submission: SubmissionView }) {
  const s = props.submission;
  const upload = useTransfersStore((t) => t.byId[`upload:${s.id}`]);
  const pack = useTransfersStore((t) => t.byId[`pack:${s.id}`]);
  const openReview = () => useSubmissionsStore.getState().openReview(s.id);
  return (
    <li className={`tray-item ${s.phase === 'failed' ? 'tray-item-error' : ''}`} aria-label={s.fileName}>
      <div className="tray-line">
        <strong>{s.fileName}</strong>
        <span className="phase">{PHASE_TEXT[s.phase]}</span>
      </div>
      {(s.phase === 'packing' || s.phase === 'missing-files' || s.phase === 'uploading') && <PackingLine packing={s.packing} />}
      {s.phase === 'packing' && (
        <ProgressBar
          value={pack?.total ? percent(pack.bytes, pack.total) : 0}
          label={`Packing of ${s.fileName}`}
          text={pack?.total ? `${formatBytes(pack.bytes)} of ${formatBytes(pack.total)}` : 'Reading which files the scene uses'}
        />
      )}
      {s.phase === 'missing-files' && <MissingFilesChoice submission={s} />}
      {s.phase === 'uploading' && (
        <>
          <ProgressBar
            value={upload ? percent(upload.bytes, upload.total ?? s.size) : 0}
            label={`Upload of ${s.fileName}`}
            text={upload ? `${formatBytes(upload.bytes)} of ${formatBytes(upload.total ?? s.size)}` : 'Starting'}
          />
          <p className="muted transfer-line">
            {upload ? `${formatBytes(upload.bytes)} of ${formatBytes(upload.total ?? s.size)} · ${formatRate(upload.rate)} · ${upload.etaSeconds !== null ? `${formatDuration(upload.etaSeconds)} left` : 'estimating'}` : 'Preparing the upload…'}
          </p>
        </>
      )}
      {s.scenes && s.phase !== 'failed' && <SceneChoice submission={s} scenes={s.scenes} />}
      {s.phase === 'validating' && <p className="muted">The farm is reading the scene…</p>}
      {s.phase === 'review' && (
        <button type="button" className="primary" onClick={openReview}>
          Review and render
        </button>
      )}
      {s.phase === 'failed' && (
        <>
          <p className="hint hint-error" role="alert">
            {s.error?.message ?? 'Stopped.'}
          </p>
          <div className="actions">
            {s.canRetry && (
              <button type="button" onClick={() => void command('submissions.retry', { submissionId: s.id }, { what: `retry ${s.fileName}` })}>
                Retry
              </button>
            )}
            <button type="button" onClick={() => void command('submissions.dismiss', { submissionId: s.id }, { what: `dismiss ${s.fileName}` })}>
              Dismiss
            </button>
          </div>
        </>
      )}
    </li>
  );
}
