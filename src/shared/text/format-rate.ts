import { formatBytes } from './format-bytes';

/** A transfer rate in the units of `formatBytes`: `3.1 MB/s`. */
export function formatRate(bytesPerSecond: number): string {
  return `${formatBytes(Math.max(0, Math.round(bytesPerSecond)))}/s`;
}
