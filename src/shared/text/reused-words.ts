import { formatBytes } from './format-bytes';

/**
 * What an upload says when the farm already has part of the file: "Sending 38 MB of 2.1 GB (the rest
 * is already on the farm)", from the bytes to send and the bytes it already has; null when it has none.
 */
export function reusedWords(toSend: number | null, reused: number | undefined): string | null {
  if (!reused || toSend === null) return null;
  return `Sending ${formatBytes(toSend)} of ${formatBytes(toSend + reused)} (the rest is already on the farm)`;
}
