import { create } from 'zustand';

interface PriorityStore {
  /** The job whose priority is being changed, if any. */
  jobId: string | null;
  open(jobId: string): void;
  close(): void;
}

/** The "Priority…" dialog of a queue row: at most one open. */
export const usePriorityStore = create<PriorityStore>((set) => ({
  jobId: null,
  open: (jobId) => set({ jobId }),
  close: () => set({ jobId: null }),
}));
