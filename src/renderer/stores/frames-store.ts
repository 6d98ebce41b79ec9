import { create } from 'zustand';
import type { FrameImage, FrameView, FrameStripView } from '../../shared/contract';
import { call } from '../bridge';

/** A frame's picture as far as the renderer knows: loading, or what the host answered. */
export type ImageState = { kind: 'loading' } | { kind: 'ready'; result: FrameImage };

/** Pictures kept at most; the oldest are dropped first. */
const IMAGE_CACHE = 400;

interface FramesStore {
  jobId: string | null;
  frames: FrameStripView | null;
  error: string | null;
  /** Pictures by {@link imageKey}. */
  images: Record<string, ImageState>;
  /** The frame open in the viewer (its number), or null. */
  viewing: number | null;
  load(jobId: string): Promise<void>;
  /** Fetches a frame's picture once: its tile (`thumbnail`, the server's small preview when there is one) or the frame itself. */
  image(jobId: string, frame: FrameView, thumbnail?: boolean): Promise<void>;
  view(frame: number | null): void;
  clear(): void;
}

/** A picture's cache key: a frame read from the server and then from disk is fetched again, a tile apart from the frame itself. */
export function imageKey(jobId: string, frame: FrameView, thumbnail = false): string {
  return `${jobId}:${frame.frame}:${frame.fileName ?? ''}:${frame.onDisk ? 'disk' : 'server'}${thumbnail ? ':tile' : ''}`;
}

/** The frames of the job open in the details, their pictures, and the frame in the viewer. */
export const useFramesStore = create<FramesStore>((set, get) => ({
  jobId: null,
  frames: null,
  error: null,
  images: {},
  viewing: null,
  async load(jobId) {
    if (get().jobId !== jobId) set({ jobId, frames: null, error: null, viewing: null });
    const result = await call('jobs.frames', { jobId });
    if (get().jobId !== jobId) return;
    if (result.ok) set({ frames: result.value, error: null });
    else set({ error: result.error.message });
  },
  async image(jobId, frame, thumbnail = false) {
    const key = imageKey(jobId, frame, thumbnail);
    if (get().images[key]) return;
    set((s) => ({ images: trimmed({ ...s.images, [key]: { kind: 'loading' } }) }));
    const result = await call('jobs.frameImage', thumbnail ? { jobId, frame: frame.frame, thumbnail } : { jobId, frame: frame.frame });
    const answer: FrameImage = result.ok ? result.value : { ok: false, reason: 'not-available' };
    set((s) => ({ images: { ...s.images, [key]: { kind: 'ready', result: answer } } }));
  },
  view: (frame) => set({ viewing: frame }),
  clear: () => set({ jobId: null, frames: null, error: null, viewing: null }),
}));

function trimmed(images: Record<string, ImageState>): Record<string, ImageState> {
  const keys = Object.keys(images);
  if (keys.length <= IMAGE_CACHE) return images;
  return Object.fromEntries(keys.slice(keys.length - IMAGE_CACHE).map((k) => [k, images[k]!]));
}
