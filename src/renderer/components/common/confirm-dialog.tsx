import { useId, useRef } from 'react';
import { useDialogFocus } from '../../lib';
import { type ConfirmRequest, useConfirmStore } from '../../stores';

/** The open question of the confirm store, if any, as a small modal dialog. */
export function ConfirmDialog() {
  const open = useConfirmStore((s) => s.open);
  if (!open) return null;
  return <ConfirmBox request={open} />;
}

function ConfirmBox(props: { request: ConfirmRequest }) {
  const { request } = props;
  const titleId = useId();
  const messageId = useId();
  const box = useRef<HTMLDivElement>(null);
  const answer = (yes: boolean) => useConfirmStore.getState().answer(yes);
  useDialogFocus(box, () => answer(false));
  return (
    <div className="backdrop backdrop-centered">
      <div className="sheet confirm" role="alertdialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={messageId} ref={box} tabIndex={-1}>
        <h2 id={titleId}>{request.title}</h2>
        <p id={messageId}>{request.message}</p>
        <div className="actions">
          <button type="button" onClick={() => answer(false)}>
            {request.keep}
          </button>
          <button type="button" className="danger" onClick={() => answer(true)}>
            {request.confirm}
          </button>
        </div>
      </div>
    </div>
  );
}
