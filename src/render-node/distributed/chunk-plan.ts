/** The most frames one chunk gets when the size is chosen automatically. */
export const MAX_AUTO_CHUNK = 50;

/**
 * Frames per chunk when none was asked for: about two chunks per connected worker, so every worker
 * starts at once and a slow one leaves little at the end, but no more chunks than that, because each
 * chunk pays for starting Blender and loading the scene. Frames are uploaded one by one, so a bigger
 * chunk does not lose more work when a worker dies.
 */
export function autoChunkSize(frameCount: number, liveWorkers: number): number {
  const perWorker = Math.ceil(frameCount / (Math.max(1, liveWorkers) * 2));
  return Math.min(MAX_AUTO_CHUNK, Math.max(1, perWorker));
}

/** Split a job's frames (in render order) into chunks of at most `size` frames. */
export function splitIntoChunks(frames: readonly number[], size: number): number[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunk size must be a whole number of at least 1, got ${size}`);
  const chunks: number[][] = [];
  for (let i = 0; i < frames.length; i += size) chunks.push(frames.slice(i, i + size));
  return chunks;
}

/** Frames as short ranges for people: `1-4, 7, 9-11`. */
export function describeFrames(frames: readonly number[]): string {
  const sorted = [...new Set(frames)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}
