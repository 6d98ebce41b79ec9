import { useId, type ReactNode } from 'react';
import { OUTPUT_FORMATS } from '../../shared/api';
import type { ReviewSheet as ReviewData } from '../../shared/contract';
import { countOf } from '../../shared/text';
import { formatDuration } from '../lib/format';
import { reviewErrors, sceneRangeOf, type ReviewForm } from '../lib/review-form';
import { FrameRangeEditor } from './frame-range-editor';

/**
 * One scene of the review: what validation detected, its warnings, the render estimate when there is
 * one, and the overrides form (submitted by the dialog's footer button through `formId`).
 */
export function ReviewScene(props: { data: ReviewData; form: ReviewForm; onChange: (form: ReviewForm) => void; formId: string; onSubmit: () => void }) {
  const { data, form } = props;
  const a = data.analysis;
  const errors = reviewErrors(form, sceneRangeOf(a));
  const sceneRange = sceneRangeOf(a);
  const set = (patch: Partial<ReviewForm>) => props.onChange({ ...form, ...patch });
  return (
    <>
      {data.fromEarlierJob && <p className="hint">Settings of the render you are sending again. Change them or start as they are.</p>}
      {data.fromLastTime && <p className="hint">Settings from the last render of this scene.</p>}
      {data.estimate && (
        <p className="estimate" data-testid="render-estimate">
          About {formatDuration(data.estimate.seconds)} to render, based on {data.estimate.basedOn}.
        </p>
      )}
      {a ? (
        <dl className="facts" aria-label="Detected settings">
          <dt>Engine</dt>
          <dd>{a.engine}</dd>
          <dt>Frame range</dt>
          <dd data-testid="detected-frame-range">
            {a.frameStart}–{a.frameEnd}
            {a.frameStep > 1 ? ` every ${a.frameStep}` : ''} ({countOf(a.totalFrames, 'frame')}, {a.fps} fps)
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
      {props.data.warnings.length > 0 && (
        <section aria-label="Warnings" className="warnings">
          <h3>Warnings</h3>
          <ul>
            {props.data.warnings.map((w, i) => (
              <li key={i}>
                {w.message}
                {w.path && !w.message.includes(w.path) ? <code className="path">{w.path}</code> : null}
              </li>
            ))}
          </ul>
        </section>
      )}
      <form
        id={props.formId}
        className="overrides"
        aria-label="Render settings"
        onSubmit={(e) => {
          e.preventDefault();
          props.onSubmit();
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
      </form>
    </>
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
