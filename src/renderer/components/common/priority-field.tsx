import { PRIORITY_PRESETS } from '../../../shared/text';

/**
 * A job's priority: a number from 0 to 100 and the named presets (Low 25, Normal 50, High 75,
 * Urgent 100) that set it. Empty text means the node's default, Normal.
 */
export function PriorityInput(props: { id: string; value: string; onChange: (value: string) => void; describedBy?: string | undefined; invalid?: boolean }) {
  const current = props.value.trim() === '' ? 50 : Number(props.value);
  return (
    <div className="priority-input">
      <input
        id={props.id}
        type="number"
        inputMode="numeric"
        min={0}
        max={100}
        step={1}
        value={props.value}
        placeholder="50"
        aria-invalid={props.invalid ?? false}
        aria-describedby={props.describedBy}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <div className="priority-presets" role="group" aria-label="Priority presets">
        {PRIORITY_PRESETS.map((p) => (
          <button key={p.name} type="button" className="chip" aria-pressed={current === p.value} title={`Priority ${p.value}`} onClick={() => props.onChange(String(p.value))}>
            {p.name}
          </button>
        ))}
      </div>
    </div>
  );
}
