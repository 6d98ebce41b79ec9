import { countOf } from './plural';

const UNITS = ['KB', 'MB', 'GB', 'TB'];

/**
 * A size for people, in decimal units as the artist's file browser shows them (Finder, GNOME Files):
 * `512 bytes`, `320 KB`, `1.5 MB`, `12.3 GB`; one decimal under 100, none from 100. `–` for a size
 * that is not a size.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '–';
  if (bytes < 1000) return countOf(Math.round(bytes), 'byte');
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.95 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value >= 99.95 ? Math.round(value) : value.toFixed(1)} ${UNITS[unit]}`;
}
