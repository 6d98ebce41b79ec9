import { useEffect, useState } from 'react';
import type { NodeWorkers, WorkerInfo } from '../../../shared/api';
import { describeFrames } from '../../../shared/render';
import { timeAgo } from '../../../shared/text';
import { call } from '../../bridge';

const REFRESH_MS = 5000;

function doing(worker: WorkerInfo): string {
  if (!worker.current && worker.state === 'disk-full') return worker.reason ?? 'Disk full: it takes no chunks until it has room again.';
  if (!worker.current) return 'Idle';
  const on = worker.current.frame === null ? '' : `, on ${worker.current.frame}`;
  return `Frames ${describeFrames(worker.current.frames)}${on} of job ${worker.current.jobId.slice(0, 8)}`;
}

/**
 * The render workers of this computer's node, listed while it renders on workers (nothing when it
 * renders with its own Blender), refreshed every few seconds while shown.
 */
export function RenderWorkers() {
  const [view, setView] = useState<NodeWorkers | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    let stopped = false;
    const load = async () => {
      const result = await call('app.renderWorkers', {});
      if (stopped) return;
      setNow(new Date());
      if (result.ok) {
        setView(result.value);
        setError(null);
      } else {
        setError(result.error.message);
      }
    };
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, []);
  if (error) return <p className="hint hint-error">{error}</p>;
  if (view?.mode !== 'distributed') return null;
  const { workers, chunks } = view;
  return (
    <section aria-label="Render workers" className="render-workers">
      <h4>Render workers</h4>
      <p className="muted">
        {workers.length === 0
          ? 'No render worker is connected; renders wait until one starts on a render machine.'
          : `${workers.length} connected`}
        {` · chunks: ${chunks.waiting} waiting, ${chunks.active} rendering${chunks.delayed ? `, ${chunks.delayed} to retry` : ''}`}
      </p>
      {workers.length > 0 && (
        <div className="table-scroll">
          <table className="config workers">
            <thead>
              <tr>
                <th>Name</th>
                <th>Blender</th>
                <th>Devices</th>
                <th>Doing</th>
                <th>Last seen</th>
                <th className="num">Frames</th>
              </tr>
            </thead>
            <tbody>
              {workers.map((w) => (
                <tr key={w.id}>
                  <td>
                    {w.name}
                    {w.host !== w.name && <span className="muted"> on {w.host}</span>}
                  </td>
                  <td>{w.blenderVersion}</td>
                  <td>{w.devices.join(', ')}</td>
                  <td>{doing(w)}</td>
                  <td>{timeAgo(w.lastSeenAt, now)}</td>
                  <td className="num">{w.framesRendered}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
