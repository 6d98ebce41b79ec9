import { useEffect, useRef } from 'react';
import { isActiveStatus, isTerminalStatus } from '../../../shared/api';
import { failedStepTitle } from '../../../shared/contract';
import { isWaitingInLine } from '../../../shared/render';
import { closeJobDetails, renderFramesAgain } from '../../lib';
import { useDetailStore, useFramesStore } from '../../stores';
import { DetailFacts } from './detail-facts';
import { DetailOutputs } from './detail-outputs';
import { DetailScene } from './detail-scene';
import { DetailSettings } from './detail-settings';
import { FrameStrip } from '../frames/frame-strip';
import { FrameViewer } from '../frames/frame-viewer';
import { LiveFrame } from '../frames/live-frame';
import { RenderMissingFrames } from './render-missing-frames';
import { StatusBadge, statusLabel } from '../common/status-badge';
import { DetailTabs, tabIds, useDetailTab } from './detail-tabs';
import { JobLogTab } from './job-log-tab';

/** The job detail panel: the last rendered frame, the frames, facts, settings in words, the scene, timeline and files. */
export function JobDetailPanel() {
  const jobId = useDetailStore((s) => s.jobId);
  const detail = useDetailStore((s) => s.detail);
  const preview = useDetailStore((s) => s.preview);
  const error = useDetailStore((s) => s.error);
  const frames = useFramesStore((s) => (s.jobId === jobId ? s.frames : null));
  const viewing = useFramesStore((s) => s.viewing);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (jobId) heading.current?.focus();
  }, [jobId]);
  const [tab, setTab] = useDetailTab(jobId);
  if (!jobId) return null;
  const close = () => closeJobDetails(jobId);
  const s = detail?.summary;
  const active = s ? isActiveStatus(s.status) : false;
  return (
    <aside className="detail" aria-label="Job details" onKeyDown={(e) => e.key === 'Escape' && viewing === null && close()}>
      <header className="sheet-header">
        <h2 ref={heading} tabIndex={-1} title={s?.fileName}>
          {s?.fileName ?? 'Job'}
        </h2>
        <button type="button" className="icon-button" aria-label="Close the details" onClick={close}>
          ×
        </button>
      </header>
      {error && (
        <p className="hint hint-error" role="alert">
          {error}
        </p>
      )}
      {!detail && !error && <p className="muted">Loading…</p>}
      {detail && s && (
        <>
          <p className="detail-status">
            <StatusBadge status={s.status} waiting={isWaitingInLine(s)} />{' '}
            <span className="muted" title={`Job ${s.id}`}>
              Job {s.id.slice(0, 8)}
            </span>
          </p>
          {s.failure && (
            <section aria-label="Why it failed" className="failure">
              <h3>{failedStepTitle(s.failedStep)}</h3>
              <p>{s.failure}</p>
            </section>
          )}
          <DetailTabs tab={tab} onChange={setTab} />
          {tab === 'log' && (
            <div role="tabpanel" id={tabIds('log').panel} aria-labelledby={tabIds('log').tab}>
              <JobLogTab jobId={s.id} active={active} failed={s.status === 'failed'} />
            </div>
          )}
          <div role="tabpanel" id={tabIds('details').panel} aria-labelledby={tabIds('details').tab} hidden={tab !== 'details'}>
          <LiveFrame summary={s} preview={preview} active={active} />
          {frames && <FrameStrip frames={frames} fileName={s.fileName} rendered={s.completedFrames} active={active} {...(isTerminalStatus(s.status) ? { onRenderAgain: (picked: number[]) => renderFramesAgain(s, { frames: picked }) } : {})} />}
          <DetailFacts detail={detail} frames={frames} />
          <DetailSettings detail={detail} />
          {detail.analysis && <DetailScene analysis={detail.analysis} />}
          {detail.timeline.length > 0 && (
            <section aria-label="Timeline">
              <h3>Timeline</h3>
              <ol className="timeline">
                {detail.timeline.map((t, i) => (
                  <li key={i}>
                    <time dateTime={t.at}>{new Date(t.at).toLocaleTimeString()}</time> {statusLabel(t.status)}
                    {t.detail && <span className="muted"> · {renderAgainWords(t.detail)}</span>}
                  </li>
                ))}
              </ol>
            </section>
          )}
          <DetailOutputs detail={detail} />
          <RenderMissingFrames key={s.id} job={s} />
          </div>
          {frames && viewing !== null && <FrameViewer frames={frames} frame={viewing} fileName={s.fileName} preview={preview} />}
        </>
      )}
    </aside>
  );
}

/** The timeline's words for a requeue ("requeued frames 5, 9-12"): "frames 5, 9-12 rendered again". */
function renderAgainWords(detail: string): string {
  return detail.startsWith('requeued ') ? `${detail.slice('requeued '.length)} rendered again` : detail;
}
