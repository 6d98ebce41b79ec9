/** What a settings form's last action came to: a line in green when it worked, in red when not. */
export function FormResult(props: { result: { ok: boolean; text: string } | null }) {
  if (!props.result) return null;
  return (
    <p className={props.result.ok ? 'hint hint-ok' : 'hint hint-error'} role="status">
      {props.result.text}
    </p>
  );
}
