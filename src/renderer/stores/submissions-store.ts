import { create } from 'zustand';
import type { SubmissionView } from '../../shared/contract';
import { call } from '../bridge';

/** A file the artist dropped, until the back end has taken it (or refused it). */
export interface DroppedFile {
  key: string;
  name: string;
  size: number;
  status: 'sending' | 'rejected' | 'accepted';
  /** Bytes handed to the back end so far (browser mode streams the file first). */
  sent: number;
  error: string | null;
  submissionId: string | null;
}

interface SubmissionsStore {
  byId: Record<string, SubmissionView>;
  dropped: DroppedFile[];
  /** The submission whose review sheet is open. */
  reviewId: string | null;
  /** The dropped files (keys) of the last drop of several scenes: their reviews are gone through together. */
  batch: string[];
  load(): Promise<void>;
  upsert(view: SubmissionView): void;
  remove(id: string): void;
  addDropped(file: DroppedFile): void;
  updateDropped(key: string, patch: Partial<DroppedFile>): void;
  dismissDropped(key: string): void;
  openReview(id: string | null): void;
  setBatch(keys: string[]): void;
}

/** The first submission of the batch (in the order the files were dropped), so its review starts at scene 1. */
function firstOfBatch(s: Pick<SubmissionsStore, 'batch' | 'dropped'>, fallback: string): string {
  const first = s.dropped.find((d) => d.key === s.batch[0]);
  return first?.submissionId ?? fallback;
}

/** Files on their way: dropped files, submissions and their phases, and the open review sheet. */
export const useSubmissionsStore = create<SubmissionsStore>((set) => ({
  byId: {},
  dropped: [],
  reviewId: null,
  batch: [],
  async load() {
    const result = await call('submissions.list', {});
    if (result.ok) set({ byId: Object.fromEntries(result.value.map((s) => [s.id, s])) });
  },
  upsert: (view) =>
    set((s) => {
      const inBatch = s.dropped.some((d) => d.submissionId === view.id && s.batch.includes(d.key));
      const opened = s.reviewId === null && view.phase === 'review' ? (inBatch ? firstOfBatch(s, view.id) : view.id) : s.reviewId;
      const reviewId = opened === view.id && view.phase !== 'review' && !inBatch ? null : opened;
      return { byId: { ...s.byId, [view.id]: view }, reviewId };
    }),
  remove: (id) =>
    set((s) => {
      const { [id]: _gone, ...rest } = s.byId;
      return { byId: rest, reviewId: s.reviewId === id ? null : s.reviewId, dropped: s.dropped.filter((d) => d.submissionId !== id) };
    }),
  addDropped: (file) => set((s) => ({ dropped: [...s.dropped, file] })),
  updateDropped: (key, patch) => set((s) => ({ dropped: s.dropped.map((d) => (d.key === key ? { ...d, ...patch } : d)) })),
  dismissDropped: (key) => set((s) => ({ dropped: s.dropped.filter((d) => d.key !== key) })),
  openReview: (reviewId) => set({ reviewId }),
  setBatch: (batch) => set({ batch }),
}));
