import { describeFrames } from '../frame-ranges';

/**
 * Which render worker rendered which frames, in words: "render-01 frames 1-4, render-02 frames 5-8"
 * (a frame the node rendered with its own Blender counts as "the node"). Null when the farm does not
 * say for any frame (`worker` absent).
 */
export function renderedByText(frames: readonly { frame: number; worker?: string | null | undefined }[]): string | null {
  const byWorker = new Map<string, number[]>();
  for (const { frame, worker } of frames) {
    if (worker === undefined) continue;
    const name = worker ?? 'the node';
    byWorker.set(name, [...(byWorker.get(name) ?? []), frame]);
  }
  if (byWorker.size === 0) return null;
  return [...byWorker.entries()]
    .map(([name, list]) => ({ name, list: [...new Set(list)].sort((a, b) => a - b) }))
    .sort((a, b) => (a.list[0] ?? 0) - (b.list[0] ?? 0))
    .map(({ name, list }) => `${name} ${list.length === 1 ? 'frame' : 'frames'} ${describeFrames(list)}`)
    .join(', ');
}
