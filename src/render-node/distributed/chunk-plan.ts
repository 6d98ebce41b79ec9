export { describeFrames } from '../../shared/render';

/** The most frames one chunk gets when the size is chosen automatically. */
export const MAX_AUTO_CHUNK = 25;

/**
 * Frames per chunk when none was asked for: one chunk per connected worker, so every worker starts at
 * once and pays for starting Blender and loading the scene once per job, with at most
 * {@link MAX_AUTO_CHUNK} frames so long jobs still spread over workers that join later. Frames are
 * uploaded one by one, so a bigger chunk does not lose more work when a worker dies; a slow worker
 * does keep its chunk to the end, which a smaller `--chunk-size` evens out on mixed machines.
 */
export function autoChunkSize(frameCount: number, liveWorkers: number): number {
  return Math.min(MAX_AUTO_CHUNK, Math.max(1, Math.ceil(frameCount / Math.max(1, liveWorkers))));
}

/**
 * Split a job's frames (in render order) into chunks of at most `size` frames. With `lanes` above 1 (the
 * workers that take chunks at once), each run of `lanes` chunks shares the next `lanes x size` frames
 * dealt in turn, so workers rendering those chunks side by side render the frames together in the
 * order given: for frames spread across the shot, the first chunks taken cover the shot between them
 * from their first frames on. With one lane the chunks are consecutive runs of the order.
 */
export function splitIntoChunks(frames: readonly number[], size: number, lanes = 1): number[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunk size must be a whole number of at least 1, got ${size}`);
  const width = Math.max(1, Math.floor(lanes));
  const chunks: number[][] = [];
  for (let start = 0; start < frames.length; start += size * width) {
    const block = frames.slice(start, start + size * width);
    const group: number[][] = Array.from({ length: Math.ceil(block.length / size) }, () => []);
    block.forEach((frame, i) => group[i % group.length]!.push(frame));
    chunks.push(...group);
  }
  return chunks;
}
