import { isPlainRecord } from '../plain-record';
import { diffConfigs } from './config-diff';
import { describeOutput, settingLabel, settingValue } from './setting-labels';

/** One line of "requested against used", in words. */
export interface SettingComparison {
  /** The configuration field (for keys and tests, never shown). */
  field: string;
  label: string;
  /** What the artist asked for; "From the scene" when they left it to the scene. */
  requested: string;
  used: string;
  changed: boolean;
  /** Why the farm changed it, when it said. */
  reason: string | null;
}

/** Shown always, in this order, when either side has them. */
const MAIN = ['frameRanges', 'resolution', 'resolutionPercentage', 'sampleCount', 'renderEngine', 'output', 'colorManagementPreset', 'activeCamera', 'activeViewLayer', 'denoisingEnabled', 'fps'];
const OUTPUT_FIELDS = new Set(['outputFormat', 'outputSettings']);
export const FROM_SCENE = 'From the scene';

/**
 * Requested against final render settings as an artist reads them: human labels, values in words,
 * format and output settings as one "Output" line with the true depth, the farm's reason beside each
 * change. The main settings are listed always; the others only when the farm changed them.
 */
export function compareSettings(requested: Record<string, unknown> | null, final: Record<string, unknown> | null): SettingComparison[] {
  const differences = diffConfigs(requested, final);
  const rows: SettingComparison[] = [];
  const req = requested ?? {};
  const fin = final ?? {};
  const output = differences.filter((d) => OUTPUT_FIELDS.has(d.field));
  if (output.length > 0) {
    const asked = 'outputFormat' in req || 'outputSettings' in req;
    const askedFormat = typeof req.outputFormat === 'string' ? req.outputFormat : typeof fin.outputFormat === 'string' ? fin.outputFormat : null;
    const usedFormat = typeof fin.outputFormat === 'string' ? fin.outputFormat : askedFormat;
    const reasons = output.map((d) => d.reason).filter((r): r is string => r !== null);
    rows.push({
      field: 'output',
      label: 'Output',
      requested: asked ? describeOutput(askedFormat, isPlainRecord(req.outputSettings) ? req.outputSettings : null) : FROM_SCENE,
      used: describeOutput(usedFormat, fin.outputSettings),
      changed: output.some((d) => d.changed),
      reason: reasons.length > 0 ? reasons.join(' ') : null,
    });
  }
  for (const d of differences) {
    if (OUTPUT_FIELDS.has(d.field)) continue;
    if (!MAIN.includes(d.field) && !d.changed) continue;
    const inRequest = d.field in req;
    rows.push({
      field: d.field,
      label: settingLabel(d.field),
      requested: inRequest ? settingValue(d.field, d.requested) : FROM_SCENE,
      used: d.field in fin ? settingValue(d.field, d.final) : settingValue(d.field, d.requested),
      changed: d.changed,
      reason: d.reason,
    });
  }
  const rank = (field: string) => {
    const i = MAIN.indexOf(field);
    return i === -1 ? MAIN.length : i;
  };
  return rows.sort((a, b) => rank(a.field) - rank(b.field) || a.label.localeCompare(b.label));
}
