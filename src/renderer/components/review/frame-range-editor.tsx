import { useId } from 'react';
import { checkFrameRangeText } from '../../lib';

/** The frame range field of the review sheet, checked as the artist types. */
export function FrameRangeEditor(props: { value: string; sceneRange: string | null; onChange: (value: string) => void }) {
  const id = useId();
  const check = checkFrameRangeText(props.value, props.sceneRange);
  return (
    <div className="field">
      <label htmlFor={id}>Frames</label>
      <input
        id={id}
        type="text"
        value={props.value}
        placeholder={props.sceneRange ?? '1-250'}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={!check.ok}
        aria-describedby={check.ok && check.outside ? `${id}-hint ${id}-outside` : `${id}-hint`}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <p id={`${id}-hint`} className={check.ok ? 'hint' : 'hint hint-error'} role={check.ok ? undefined : 'alert'}>
        {check.ok ? check.message : `${check.message} Use 12, 1-10 or 1-10/2, separated by commas.`}
      </p>
      {check.ok && check.outside && (
        <p id={`${id}-outside`} className="hint hint-warn" role="status">
          {check.outside}
        </p>
      )}
    </div>
  );
}
