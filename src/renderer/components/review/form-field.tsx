import { useId, type ReactNode } from 'react';

/**
 * A labelled field of a form, with its error below it: `children` draws the control from the id the
 * label points at and the id of the error it is described by (when there is one).
 */
export function FormField(props: { label: string; error?: string | undefined; children: (id: string, describedBy: string | undefined) => ReactNode }) {
  const id = useId();
  const hint = props.error ? `${id}-error` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.children(id, hint)}
      {props.error && (
        <p id={hint} className="hint hint-error" role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}
