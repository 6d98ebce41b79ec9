import { OUTPUT_FORMATS } from '../../../shared/api';
import { formatName, type ReviewSheet as ReviewData } from '../../../shared/contract';
import type { ReviewForm } from '../../lib';
import { FormField } from './form-field';

/**
 * The overrides chosen from a list: camera, view layer, colour preset, output format, and the Blender
 * version when the farm has several that can open the scene.
 */
export function RenderChoiceFields(props: { analysis: ReviewData['analysis']; form: ReviewForm; set: (patch: Partial<ReviewForm>) => void; blender?: ReviewData['blender'] }) {
  const { analysis: a, form, set, blender } = props;
  return (
    <>
      <FormField label="Camera">
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
      </FormField>
      <FormField label="View layer">
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
      </FormField>
      <FormField label="Colour preset">
        {(id) => (
          <select id={id} value={form.preset} onChange={(e) => set({ preset: e.target.value as ReviewForm['preset'] })}>
            <option value="default">Default</option>
            <option value="aces">ACES</option>
          </select>
        )}
      </FormField>
      <FormField label="Output format">
        {(id) => (
          <select id={id} value={form.outputFormat} onChange={(e) => set({ outputFormat: e.target.value })}>
            <option value="">Scene format</option>
            {OUTPUT_FORMATS.map((f) => (
              <option key={f} value={f}>
                {formatName(f)}
              </option>
            ))}
          </select>
        )}
      </FormField>
      {blender && (
        <FormField label="Blender">
          {(id) => (
            <select id={id} value={form.blender ?? ''} onChange={(e) => set({ blender: e.target.value })}>
              <option value="">Farm&apos;s choice ({blender.farmChoice})</option>
              {blender.versions.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          )}
        </FormField>
      )}
    </>
  );
}
