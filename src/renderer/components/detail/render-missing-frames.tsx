import { useCallback, useEffect, useId, useState } from 'react';
import type { FolderCheckView, JobSummary } from '../../../shared/contract';
import { describeFrames } from '../../../shared/render';
import { countOf } from '../../../shared/text';
import { call } from '../../bridge';
import { command } from '../../lib';
import { useDetailStore } from '../../stores';

const FINISHED = new Set(['completed', 'failed', 'canceled']);

/** What a folder check found, in the artist's words. */
export function describeFolder(check: FolderCheckView): string[] {
  if (check.missing.length === 0 && check.broken.length === 0) return [`All ${countOf(check.expected, 'frame')} are in your folder.`];
  const lines: string[] = [];
  if (check.missing.length > 0) {
    const which = check.missing.length === 1 ? `frame ${check.missing[0]}` : `frames ${describeFrames(check.missing).replace(/-/g, '–')}`;
    lines.push(`${check.missing.length} of ${countOf(check.expected, 'frame')} ${check.missing.length === 1 ? 'is' : 'are'} not in your folder (${which}).`);
  }
  for (const b of check.broken) lines.push(`Frame ${b.frame} cannot be used: ${b.reason}.`);
  const kept = check.downloadable;
  if (kept.length > 0) {
    const which = kept.length === 1 ? `Frame ${kept[0]} is` : `Frames ${describeFrames(kept).replace(/-/g, '–')} are`;
    lines.push(`${which} still on the farm: “Download again” fetches ${kept.length === 1 ? 'it' : 'them'} without rendering.`);
  }
  return lines;
}

type State = { kind: 'checking' } | { kind: 'checked'; check: FolderCheckView } | { kind: 'error'; message: string } | { kind: 'started'; count: number; arrived: number };

/** How often the folder is looked at again while missing frames are rendered into it. */
const REPAIR_CHECK_MS = 3_000;

/**
 * What a folder check means after "Render missing frames" started `count` frames: still rendering
 * (with how many arrived) until nothing is missing or damaged any more, then the check itself.
 */
export function afterRepair(count: number, check: FolderCheckView): State {
  const left = check.missing.length + check.broken.length;
  return left === 0 ? { kind: 'checked', check } : { kind: 'started', count, arrived: Math.max(0, count - left) };
}

/**
 * "Render missing frames" for a finished job: checks the job's folder on this computer, says which
 * frames are missing or damaged, and renders exactly those again into it (same scene, same settings).
 */
export function RenderMissingFrames({ job }: { job: Pick<JobSummary, 'id' | 'status' | 'download'> }) {
  const [state, setState] = useState<State>({ kind: 'checking' });
  const reasonId = useId();
  const finished = FINISHED.has(job.status);
  const check = useCallback(async () => {
    setState({ kind: 'checking' });
    const result = await call('jobs.verifyFolder', { jobId: job.id });
    setState(result.ok ? { kind: 'checked', check: result.value } : { kind: 'error', message: result.error.message });
    if (result.ok) void useDetailStore.getState().refresh();
  }, [job.id]);
  useEffect(() => {
    if (finished) void check();
  }, [check, finished, job.download.state]);
  const repairing = state.kind === 'started' ? state.count : null;
  useEffect(() => {
    if (repairing === null) return;
    const timer = setInterval(() => {
      void call('jobs.verifyFolder', { jobId: job.id }).then((result) => {
        if (!result.ok) return;
        const next = afterRepair(repairing, result.value);
        setState((now) => (now.kind === 'started' ? next : now));
        if (next.kind === 'checked') void useDetailStore.getState().refresh();
      });
    }, REPAIR_CHECK_MS);
    return () => clearInterval(timer);
  }, [repairing, job.id]);
  if (!finished) return null;

  const found = state.kind === 'checked' ? state.check : null;
  const count = found ? found.missing.length + found.broken.length : 0;
  const reason =
    state.kind === 'checking'
      ? 'Checking the frames in your folder…'
      : state.kind === 'error'
        ? state.message
        : state.kind === 'started'
          ? `Rendering ${countOf(state.count, 'frame')} again; they will be downloaded into your folder.${state.arrived > 0 ? ` ${state.arrived} of ${state.count} are there so far.` : ''}`
          : count === 0
            ? 'Nothing is missing.'
            : found?.cannotRender ?? null;
  const start = async () => {
    const started = await command('jobs.renderMissing', { jobId: job.id }, { what: 'render the missing frames' });
    if (started?.ok) setState({ kind: 'started', count, arrived: 0 });
    else if (started && !started.ok) setState({ kind: 'error', message: started.error.message });
  };
  return (
    <section aria-label="Frames in your folder" className="render-missing">
      <h3>Frames in your folder</h3>
      {found && describeFolder(found).map((line) => <p key={line}>{line}</p>)}
      {reason && (
        <p id={reasonId} className={state.kind === 'error' || (found?.cannotRender && count > 0) ? 'hint hint-error' : 'hint'} role="status">
          {reason}
        </p>
      )}
      <div className="actions">
        <button type="button" className="primary" disabled={state.kind !== 'checked' || count === 0 || found?.cannotRender != null} aria-describedby={reason ? reasonId : undefined} onClick={() => void start()}>
          Render missing frames
        </button>
        <button type="button" disabled={state.kind === 'checking'} onClick={() => void check()}>
          Check again
        </button>
      </div>
    </section>
  );
}
