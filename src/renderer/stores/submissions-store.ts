import { create } from 'zustand';
import type { SubmissionView } from '../../shared/contract/submission-views';
import { call } from '../bridge/bridge';

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
  load(): Promise<void>;
  upsert(view: SubmissionView): void;
  remove(id: string): void;
  addDropped(file: DroppedFile): void;
  updateDropped(key: string, patch: Partial<DroppedFile>): void;
  dismissDropped(key: string): void;
  openReview(id: string | null): void;
}

/** Files on their way: dropped files, submissions and their phases, and the open review sheet. */
export const useSubmissionsStore = create<SubmissionsStore>((set) => ({
  byId: {},
  dropped: [],
  reviewId: null,
  async load() {
    const result = await call('submissions.list', {});
    if (result.ok) set({ byId: Object.fromEntries(result.value.map((s) => [s.id, s])) });
  },
  upsert: (view) =>
    set((s) => {
      const opened = s.reviewId === null && view.phase === 'review' ? view.id : s.reviewId;
      const reviewId = opened === view.id && view.phase !== 'review' ? null : opened;
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
}));
