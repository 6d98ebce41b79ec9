import { useEffect, useId, useState } from 'react';
import { isTerminalStatus } from '../../../shared/api';
import type { FarmWorkersView, FrameStripView, JobSummary } from '../../../shared/contract';
import { priorityWords } from '../../../shared/text';
import { call } from '../../bridge';
import { command } from '../../lib';

/** A job's facts on a Renderdrop node, inside the details' list of facts: priority, tags it needs, which worker rendered which frames. */
export function StudioFacts(props: { summary: JobSummary; frames: FrameStripView | null }) {
  const { summary: s } = props;
  const renderedBy = props.frames?.renderedBy ?? null;
  return (
    <>
      {typeof s.priority === 'number' && (
        <>
          <dt>Priority</dt>
          <dd data-testid="detail-priority">{priorityWords(s.priority)}</dd>
        </>
      )}
      {s.requires && s.requires.length > 0 && (
        <>
          <dt>Needs tags</dt>
          <dd>{s.requires.join(', ')}</dd>
        </>
      )}
      {renderedBy !== null && (
        <>
          <dt>Rendered by</dt>
          <dd data-testid="rendered-by">{renderedBy}</dd>
        </>
      )}
    </>
  );
}

/** While a job on a Renderdrop node with render workers has not ended: keep a worker from it, or let one back. */
export function JobWorkerBlocks(props: { summary: JobSummary }) {
  const { summary: s } = props;
  if (typeof s.priority !== 'number' || isTerminalStatus(s.status)) return null;
  return <JobBlocks jobId={s.id} />;
}

/** Keep a worker from this job, or let one kept from it render it again. */
function JobBlocks(props: { jobId: string }) {
  const [view, setView] = useState<FarmWorkersView | null>(null);
  const [picked, setPicked] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const selectId = useId();
  useEffect(() => {
    let stopped = false;
    void call('workers.list', {}).then((result) => {
      if (!stopped && result.ok) setView(result.value);
    });
    return () => {
      stopped = true;
    };
  }, [props.jobId]);
  if (!view?.supported || view.view.mode !== 'distributed') return null;
  const blocks = (view.view.blocks ?? []).filter((b) => b.jobId === props.jobId);
  const free = view.view.workers.map((w) => w.name).filter((name) => !blocks.some((b) => b.worker === name));
  const change = async (worker: string, block: boolean) => {
    setFailure(null);
    const next = await command('workers.block', { worker, jobId: props.jobId, block }, { what: block ? `keep ${worker} from this job` : `let ${worker} render this job`, show: setFailure });
    if (next) {
      setView(next);
      setPicked('');
    }
  };
  return (
    <section aria-label="Render workers of this job" className="detail-workers">
      {blocks.map((b) => (
        <p key={b.worker} className="hint">
          {b.worker} is kept from this job{b.by === 'failures' ? ' after failing its frames' : ''}.{' '}
          <button type="button" className="small" onClick={() => void change(b.worker, false)}>
            Let {b.worker} render it
          </button>
        </p>
      ))}
      {free.length > 0 && (
        <div className="inline-form">
          <label htmlFor={selectId}>Keep a worker from this job</label>
          <select id={selectId} value={picked} onChange={(e) => setPicked(e.target.value)}>
            <option value="">Choose a worker</option>
            {free.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
          <button type="button" className="small" disabled={picked === ''} onClick={() => void change(picked, true)}>
            Block for this job
          </button>
        </div>
      )}
      {failure && (
        <p className="hint hint-error" role="alert">
          {failure}
        </p>
      )}
    </section>
  );
}
