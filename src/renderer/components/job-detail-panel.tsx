import { useEffect, useRef } from 'react';
import { command } from '../lib/command';
import { formatBytes, formatDuration, formatValue, secondsBetween } from '../lib/format';
import { useDetailStore } from '../stores/detail-store';
import { useQueueStore } from '../stores/queue-store';
import { RenderMissingFrames } from './render-missing-frames';
import { StatusBadge, statusLabel } from './status-badge';

/** The job detail panel: preview, analysis, requested against final settings, failure, timeline, outputs. */
export function JobDetailPanel() {
  const jobId = useDetailStore((s) => s.jobId);
  const detail = useDetailStore((s) => s.detail);
  const preview = useDetailStore((s) => s.preview);
  const error = useDetailStore((s) => s.error);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (jobId) heading.current?.focus();
  }, [jobId]);
  if (!jobId) return null;
  const close = () => {
    useDetailStore.getState().close();
    useQueueStore.getState().select(null);
  };
  const s = detail?.summary;
  return (
    <aside className="detail" aria-label="Job details" onKeyDown={(e) => e.key === 'Escape' && close()}>
      <header className="sheet-header">
        <h2 ref={heading} tabIndex={-1}>
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
          <p>
            <StatusBadge status={s.status} /> <span className="muted">job {s.id}</span>
          </p>
          {preview && <img className="preview" src={preview} alt={`Preview of ${s.fileName}`} />}
          {s.failure && (
            <section aria-label="Why it failed" className="failure">
              <h3>Why it failed</h3>
              <p>{s.failure}</p>
            </section>
          )}
          <dl className="facts">
            <dt>Frames</dt>
            <dd>
              {s.completedFrames} / {s.totalFrames}
            </dd>
            <dt>Time spent</dt>
            <dd>{formatDuration(secondsBetween(s.startedAt, s.endedAt, Date.now()))}</dd>
            <dt>Render time counted</dt>
            <dd>{s.normalizedSeconds !== null ? formatDuration(s.normalizedSeconds) : '–'}</dd>
            <dt>Output folder</dt>
            <dd>{s.download.dir ?? 'not downloaded'}</dd>
          </dl>
          {detail.analysis && (
            <section aria-label="Analysis">
              <h3>Analysis</h3>
              <dl className="facts">
                <dt>Engine</dt>
                <dd>{detail.analysis.engine}</dd>
                <dt>Frame range</dt>
                <dd>
                  {detail.analysis.frameStart}–{detail.analysis.frameEnd}
                </dd>
                <dt>Resolution</dt>
                <dd>
                  {detail.analysis.resolution[0]} × {detail.analysis.resolution[1]} at {detail.analysis.resolutionPercentage} %
                </dd>
                <dt>Cameras</dt>
                <dd>{detail.analysis.cameras.join(', ') || 'none'}</dd>
                <dt>Saved with</dt>
                <dd>Blender {detail.analysis.savedWithBlender ?? 'unknown'}</dd>
              </dl>
              {detail.analysis.warnings.length > 0 && (
                <ul className="warnings">
                  {detail.analysis.warnings.map((w, i) => (
                    <li key={i}>
                      {w.message} {w.path && !w.message.includes(w.path) && <code className="path">{w.path}</code>}
                    </li>
                  ))}
                </ul>
              )}
            </section>
          )}
          {detail.differences.length > 0 && (
            <section aria-label="Requested and final settings">
              <h3>Requested and final settings</h3>
              <table className="config">
                <thead>
                  <tr>
                    <th scope="col">Setting</th>
                    <th scope="col">Requested</th>
                    <th scope="col">Used</th>
                  </tr>
                </thead>
                <tbody>
                  {detail.differences.map((d) => (
                    <tr key={d.field} className={d.changed ? 'changed' : undefined}>
                      <th scope="row">
                        {d.field}
                        {d.changed && <span className="visually-hidden"> (changed)</span>}
                      </th>
                      <td>{formatValue(d.requested)}</td>
                      <td>
                        {formatValue(d.final)}
                        {d.reason && <div className="muted">{d.reason}</div>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )}
          {detail.timeline.length > 0 && (
            <section aria-label="Timeline">
              <h3>Timeline</h3>
              <ol className="timeline">
                {detail.timeline.map((t, i) => (
                  <li key={i}>
                    <time dateTime={t.at}>{new Date(t.at).toLocaleTimeString()}</time> {statusLabel(t.status) ?? t.status}
                  </li>
                ))}
              </ol>
            </section>
          )}
          {detail.outputs.length > 0 && (
            <section aria-label="Output files">
              <h3>Output files</h3>
              <ul className="outputs">
                {detail.outputs.map((o) => (
                  <li key={o.relativePath}>
                    <code>{o.relativePath}</code> <span className={`file-state file-${o.state}`}>{o.state === 'downloaded' ? `downloaded (${formatBytes(o.bytes ?? 0)})` : o.state === 'partial' ? 'partly downloaded' : 'not downloaded'}</span>
                  </li>
                ))}
              </ul>
              <div className="actions">
                <button type="button" onClick={() => void command('jobs.download', { jobId: s.id }, { what: 'download the outputs' })}>
                  Download again
                </button>
                <button type="button" onClick={() => void command('jobs.openFolder', { jobId: s.id }, { what: 'open the folder' })}>
                  Open folder
                </button>
              </div>
            </section>
          )}
          <RenderMissingFrames key={s.id} job={s} />
        </>
      )}
    </aside>
  );
}
