import { useState } from 'react';
import type { NodeWorkers, WorkerBlock, WorkerInfo } from '../../../shared/api';
import type { FarmWorkersView } from '../../../shared/contract';
import { countOf, timeAgo } from '../../../shared/text';
import { blocksOf, blockText, command, workerStateText } from '../../lib';
import { useFarmWorkers } from './use-farm-workers';

type Distributed = Extract<NodeWorkers, { mode: 'distributed' }>;

/**
 * Every render worker of the active profile's Renderdrop node, live: name and host, tags, Blender,
 * what it does, frames done, failures, last seen; each can be kept from every job, or let back.
 */
export function WorkersPage() {
  const { view, error, replace } = useFarmWorkers();
  const [failure, setFailure] = useState<string | null>(null);
  const block = async (worker: string, jobId: string | null, on: boolean) => {
    setFailure(null);
    const next = await command('workers.block', { worker, block: on, ...(jobId !== null ? { jobId } : {}) }, { what: on ? `block ${worker}` : `unblock ${worker}`, show: setFailure });
    if (next) replace(next);
  };
  return (
    <section className="workers-page" aria-labelledby="workers-title">
      <h2 id="workers-title">Render workers</h2>
      {error && (
        <p className="hint hint-error" role="alert">
          {error}
        </p>
      )}
      {failure && (
        <p className="hint hint-error" role="alert">
          {failure}
        </p>
      )}
      {view === null && !error ? <p className="muted">Reading the workers…</p> : view && <WorkersBody view={view} onBlock={block} />}
    </section>
  );
}

function WorkersBody(props: { view: FarmWorkersView; onBlock: (worker: string, jobId: string | null, on: boolean) => Promise<void> }) {
  const { view } = props;
  if (!view.supported) return <p className="hint">{view.message}</p>;
  const nodeView = view.view;
  if (nodeView.mode === 'embedded') {
    const versions = nodeView.blenderVersions?.length ? ` (Blender ${nodeView.blenderVersions.join(', ')})` : '';
    const tags = nodeView.tags?.length ? ` Its tags: ${nodeView.tags.join(', ')}.` : '';
    return (
      <p className="hint">
        This node renders with its own Blender{versions}; it has no render workers.{tags} Start it with Redis to render on workers.
      </p>
    );
  }
  const now = Date.parse(view.readAt);
  return <WorkerTable view={nodeView} jobNames={view.jobNames} now={Number.isNaN(now) ? Date.now() : now} onBlock={props.onBlock} />;
}

function WorkerTable(props: { view: Distributed; jobNames: Record<string, string>; now: number; onBlock: (worker: string, jobId: string | null, on: boolean) => Promise<void> }) {
  const { view, jobNames, now } = props;
  const online = view.workers.filter((w) => w.state !== 'offline').length;
  const offline = view.workers.length - online;
  const jobBlocks = (view.blocks ?? []).filter((b) => b.jobId !== null);
  return (
    <>
      <p className="muted" data-testid="workers-summary">
        {online === 0 ? 'No render worker is connected; renders wait until one starts on a render machine.' : `${countOf(online, 'worker')} connected`}
        {offline > 0 && `, ${offline} offline`}
        {` · chunks: ${view.chunks.waiting} waiting, ${view.chunks.active} rendering${view.chunks.delayed ? `, ${view.chunks.delayed} to retry` : ''}`}
      </p>
      {view.workers.length > 0 && (
        <div className="table-scroll">
          <table className="farm-workers">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Tags</th>
                <th scope="col">Blender</th>
                <th scope="col">State</th>
                <th scope="col" className="num">
                  Frames
                </th>
                <th scope="col" className="num">
                  Failures
                </th>
                <th scope="col">Last seen</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {view.workers.map((w) => (
                <WorkerRow key={w.id} worker={w} blocks={view.blocks} jobNames={jobNames} now={now} onBlock={props.onBlock} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {jobBlocks.length > 0 && <JobBlocks blocks={jobBlocks} jobNames={jobNames} onBlock={props.onBlock} />}
    </>
  );
}

function WorkerRow(props: { worker: WorkerInfo; blocks: WorkerBlock[] | undefined; jobNames: Record<string, string>; now: number; onBlock: (worker: string, jobId: string | null, on: boolean) => Promise<void> }) {
  const { worker: w, now } = props;
  const { everyJob } = blocksOf(w.name, props.blocks);
  return (
    <tr data-worker={w.name} data-state={w.state}>
      <th scope="row">
        {w.name}
        {w.host !== w.name && <span className="worker-host">on {w.host}</span>}
      </th>
      <td className="worker-tags">{w.tags?.length ? w.tags.join(', ') : <span className="muted">none</span>}</td>
      <td>{w.blenderVersion}</td>
      <td className={`worker-state worker-${w.state}`} title={w.reason ?? undefined}>
        {workerStateText(w, props.jobNames, now)}
        {everyJob && <span className="worker-blocked"> · kept from every job</span>}
      </td>
      <td className="num">{w.framesRendered}</td>
      <td className="num">{w.chunksFailed ?? '–'}</td>
      <td>{timeAgo(w.lastSeenAt, new Date(now))}</td>
      <td>
        <button type="button" className="small" aria-label={everyJob ? `Unblock ${w.name}` : `Block ${w.name} for every job`} onClick={() => void props.onBlock(w.name, null, !everyJob)}>
          {everyJob ? 'Unblock' : 'Block'}
        </button>
      </td>
    </tr>
  );
}

/** The workers kept from one job each (by hand, or after failing its frames), each with a way back. */
function JobBlocks(props: { blocks: WorkerBlock[]; jobNames: Record<string, string>; onBlock: (worker: string, jobId: string | null, on: boolean) => Promise<void> }) {
  return (
    <section aria-labelledby="job-blocks-title" className="job-blocks">
      <h3 id="job-blocks-title">Kept from a job</h3>
      <ul>
        {props.blocks.map((b) => (
          <li key={`${b.worker}:${b.jobId}`}>
            {blockText(b, props.jobNames)}{' '}
            <button type="button" className="small" onClick={() => void props.onBlock(b.worker, b.jobId, false)}>
              Let it render this job
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
