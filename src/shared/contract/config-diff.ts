import { adjustmentsOf } from '../api';
import type { ConfigDifference } from './job-views';

/**
 * Requested against final render configuration, field by field: every field either names, with
 * whether the server changed it and why (from the final config's `adjustments`, when present).
 * Fields only the final config has are listed as detected values (unchanged).
 */
export function diffConfigs(requested: Record<string, unknown> | null, final: Record<string, unknown> | null): ConfigDifference[] {
  const req = requested ?? {};
  const fin = final ?? {};
  const reasons = new Map<string, string>();
  for (const a of adjustmentsOf(fin)) {
    if (a.field !== null && a.reason !== null) reasons.set(a.field, a.reason);
  }
  const fields = [...new Set([...Object.keys(req), ...Object.keys(fin)])].filter((f) => f !== 'adjustments').sort();
  return fields.map((field) => {
    const inRequest = field in req;
    const requestedValue = inRequest ? req[field] : undefined;
    const finalValue = fin[field];
    const changed = reasons.has(field) || (inRequest && field in fin && !sameValue(requestedValue, finalValue));
    return { field, requested: inRequest ? requestedValue : null, final: finalValue ?? null, changed, reason: reasons.get(field) ?? null };
  });
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
