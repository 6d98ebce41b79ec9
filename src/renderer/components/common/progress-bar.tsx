/** An accessible progress bar: `role="progressbar"` with its value in percent. */
export function ProgressBar(props: { value: number; label: string; text?: string; tone?: 'normal' | 'done' | 'error' }) {
  const value = Math.max(0, Math.min(100, Math.round(props.value)));
  return (
    <div
      className={`progress progress-${props.tone ?? 'normal'}`}
      role="progressbar"
      aria-label={props.label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      aria-valuetext={props.text ?? `${value} %`}
    >
      <div className="progress-fill" style={{ width: `${value}%` }} />
    </div>
  );
}
