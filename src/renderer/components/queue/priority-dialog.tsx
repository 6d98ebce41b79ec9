import { useId, useRef, useState } from 'react';
import { isTerminalStatus } from '../../../shared/api';
import { priorityWords } from '../../../shared/text';
import { command, priorityError, useDialogFocus } from '../../lib';
import { usePriorityStore, useQueueStore } from '../../stores';
import { PriorityInput } from '../common/priority-field';

/** The "Priority…" dialog of a queue row, while one is open. */
export function PriorityDialog() {
  const jobId = usePriorityStore((s) => s.jobId);
  if (jobId === null) return null;
  return <PriorityBox key={jobId} jobId={jobId} />;
}

function PriorityBox(props: { jobId: string }) {
  const job = useQueueStore((s) => s.byId.get(props.jobId));
  const [value, setValue] = useState(() => String(job?.priority ?? 50));
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const inputId = useId();
  const box = useRef<HTMLDivElement>(null);
  const close = () => usePriorityStore.getState().close();
  useDialogFocus(box, close);
  const error = value.trim() === '' ? 'Give a priority from 0 to 100.' : priorityError(value);
  const ended = job !== undefined && isTerminalStatus(job.status);
  const save = async () => {
    if (error !== null || ended) return;
    setBusy(true);
    setFailure(null);
    const done = await command('jobs.setPriority', { jobId: props.jobId, priority: Number(value) }, { what: 'change the priority', show: setFailure });
    setBusy(false);
    if (done) close();
  };
  const name = job?.fileName ?? `job ${props.jobId.slice(0, 8)}`;
  const shown = error ?? failure ?? (ended ? `${name} has ended; its priority no longer changes anything.` : null);
  return (
    <div className="backdrop backdrop-centered">
      <div className="sheet confirm priority-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={box} tabIndex={-1}>
        <h2 id={titleId}>Priority of {name}</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <p className="hint">
            Now {priorityWords(job?.priority ?? 50)}. Higher priorities render first; frames not yet handed out follow the new one at once.
          </p>
          <div className="field">
            <label htmlFor={inputId}>Priority (0-100)</label>
            <PriorityInput id={inputId} value={value} onChange={setValue} describedBy={shown ? `${inputId}-error` : undefined} invalid={error !== null} />
            {shown && (
              <p id={`${inputId}-error`} className="hint hint-error" role="alert">
                {shown}
              </p>
            )}
          </div>
          <div className="actions">
            <button type="button" onClick={close}>
              Keep as it is
            </button>
            <button type="submit" className="primary" disabled={busy || error !== null || ended}>
              Set priority
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
