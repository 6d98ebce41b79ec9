import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { OUTPUT_FORMATS, type RenderConfig } from '../../shared/api/render-config';
import type { ReviewSheet as ReviewData } from '../../shared/contract/submission-views';
import { command } from '../lib/command';
import { configFromForm, formFromConfig, reviewErrors, sceneRangeOf, type ReviewForm } from '../lib/review-form';
import { useSubmissionsStore } from '../stores/submissions-store';
import { FrameRangeEditor } from './frame-range-editor';

/** The review sheet: what validation detected, its warnings, the overrides, and Start render. */
export function ReviewSheet(props: { submissionId: string }) {
  const [data, setData] = useState<ReviewData | null>(null);
  const [form, setForm] = useState<ReviewForm | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => useSubmissionsStore.getState().openReview(null);
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    void command('submissions.review', { submissionId: props.submissionId }, { what: 'open the review', show: (message) => live && setError(message) }).then((sheet) => {
      if (!live || !sheet) return;
      setData(sheet);
      setForm(formFromConfig(sheet.defaults));
    });
    return () => {
      live = false;
    };
  }, [props.submissionId]);

  useEffect(() => {
    dialog.current?.focus();
  }, [data]);

  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') close();
  };

  if (!data || !form) {
    return (
      <div className="sheet" role="dialog" aria-modal="true" aria-label="Review render settings" ref={dialog} tabIndex={-1} onKeyDown={onKey}>
        <p>{error ?? 'Reading what validation found…'}</p>
        <button type="button" onClick={close}>
          Close
        </button>
      </div>
    );
  }

  const a = data.analysis;
  const sceneRange = sceneRangeOf(a);
  const errors = reviewErrors(form, sceneRange);
  const invalid = Object.keys(errors).length > 0;
  const set = (patch: Partial<ReviewForm>) => setForm({ ...form, ...patch });

  const start = async () => {
    setBusy(true);
    const config: RenderConfig = configFromForm(form, data.defaults);
    const started = await command('submissions.startRender', { submissionId: data.submissionId, renderConfig: config }, { what: 'start the render', show: setError });
    setBusy(false);
    if (started) close();
  };
  const discard = async () => {
    setBusy(true);
    await command('submissions.discard', { submissionId: data.submissionId }, { what: `discard ${data.fileName}` });
    setBusy(false);
    close();
  };

  return (
    <div className="sheet" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={dialog} tabIndex={-1} onKeyDown={onKey}>
      <header className="sheet-header">
        <h2 id={titleId}>Review {data.fileName}</h2>
        <button type="button" className="icon-button" aria-label="Close the review" onClick={close}>
          ×
        </button>
      </header>
      {data.fromLastTime && <p className="hint">Settings from the last render of this scene.</p>}
      {a ? (
        <dl className="facts" aria-label="Detected settings">
          <dt>Engine</dt>
          <dd>{a.engine}</dd>
          <dt>Frame range</dt>
          <dd data-testid="detected-frame-range">
            {a.frameStart}–{a.frameEnd}
            {a.frameStep > 1 ? ` every ${a.frameStep}` : ''} ({a.totalFrames} frames, {a.fps} fps)
          </dd>
          <dt>Resolution</dt>
          <dd>
            {a.resolution[0]} × {a.resolution[1]} at {a.resolutionPercentage} %
          </dd>
          <dt>Samples</dt>
          <dd>{a.samples ?? '–'}</dd>
          <dt>Camera</dt>
          <dd>{a.activeCamera ?? 'none'}</dd>
          <dt>View layer</dt>
          <dd>{a.activeViewLayer ?? '–'}</dd>
          <dt>Output</dt>
          <dd>{a.outputFormat}</dd>
          <dt>Colour</dt>
          <dd>
            {a.colorManagement.viewTransform}
            {a.colorManagement.look && a.colorManagement.look !== 'None' ? `, ${a.colorManagement.look}` : ''}
          </dd>
          <dt>Saved with</dt>
          <dd>Blender {a.savedWithBlender ?? 'unknown'} (farm: {a.nodeBlender})</dd>
        </dl>
      ) : (
        <p className="hint">The server did not describe the scene; the render uses the scene's own settings unless you change them.</p>
      )}
      {data.warnings.length > 0 && (
        <section aria-label="Warnings" className="warnings">
          <h3>Warnings</h3>
          <ul>
            {data.warnings.map((w, i) => (
              <li key={i}>
                {w.message}
                {w.path && !w.message.includes(w.path) ? <code className="path">{w.path}</code> : null}
              </li>
            ))}
          </ul>
        </section>
      )}
      <form
        className="overrides"
        aria-label="Render settings"
        onSubmit={(e) => {
          e.preventDefault();
          if (!invalid && !busy) void start();
        }}
      >
        <FrameRangeEditor value={form.frames} sceneRange={sceneRange} onChange={(frames) => set({ frames })} />
        <Field label="Samples" error={errors.samples}>
          {(id, describedBy) => (
            <input id={id} inputMode="numeric" value={form.samples} placeholder={a?.samples ? String(a.samples) : ''} aria-invalid={!!errors.samples} aria-describedby={describedBy} onChange={(e) => set({ samples: e.target.value })} />
          )}
        </Field>
        <Field label="Resolution %" error={errors.resolutionPercentage}>
          {(id, describedBy) => (
            <input
              id={id}
              inputMode="numeric"
              value={form.resolutionPercentage}
              aria-invalid={!!errors.resolutionPercentage}
              aria-describedby={describedBy}
              onChange={(e) => set({ resolutionPercentage: e.target.value })}
            />
          )}
        </Field>
        <Field label="Camera">
          {(id) => (
            <select id={id} value={form.camera} onChange={(e) => set({ camera: e.target.value })}>
              <option value="">Scene camera</option>
              {(a?.cameras ?? []).map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="View layer">
          {(id) => (
            <select id={id} value={form.viewLayer} onChange={(e) => set({ viewLayer: e.target.value })}>
              <option value="">Scene view layer</option>
              {(a?.viewLayers ?? []).map((v) => (
                <option key={v.name} value={v.name}>
                  {v.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Colour preset">
          {(id) => (
            <select id={id} value={form.preset} onChange={(e) => set({ preset: e.target.value as ReviewForm['preset'] })}>
              <option value="default">Default</option>
              <option value="aces">ACES</option>
            </select>
          )}
        </Field>
        <Field label="Output format">
          {(id) => (
            <select id={id} value={form.outputFormat} onChange={(e) => set({ outputFormat: e.target.value })}>
              <option value="">Scene format</option>
              {OUTPUT_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          )}
        </Field>
        {error && (
          <p className="hint hint-error" role="alert">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="button" onClick={() => void discard()} disabled={busy}>
            Discard
          </button>
          <button type="submit" className="primary" disabled={invalid || busy}>
            Start render
          </button>
        </div>
      </form>
    </div>
  );
}

function Field(props: { label: string; error?: string | undefined; children: (id: string, describedBy: string | undefined) => ReactNode }) {
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
