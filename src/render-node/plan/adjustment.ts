/** One change the node made to what was requested, with the reason. */
export interface Adjustment {
  field: string;
  requested: unknown;
  used: unknown;
  reason: string;
}

/** The value a setting is rendered with, and the changes the node made to the requested one. */
export interface SettingChoice<T> {
  value: T;
  adjustments: Adjustment[];
}

/** A setting used as requested (or as the scene has it), without any change. */
export function unchanged<T>(value: T): SettingChoice<T> {
  return { value, adjustments: [] };
}

/** The record of one change: `field` was given `used` instead of `requested`, for `reason`. */
export function change(field: string, requested: unknown, used: unknown, reason: string): Adjustment {
  return { field, requested, used, reason };
}

/** A setting the node changed: `used` instead of `requested`, for `reason`. */
export function adjusted<T>(field: string, requested: unknown, used: T, reason: string): SettingChoice<T> {
  return { value: used, adjustments: [change(field, requested, used, reason)] };
}
