import { create } from 'zustand';
import type { JobDetail } from '../../shared/contract/job-views';
import { call } from '../bridge/bridge';

interface DetailStore {
  jobId: string | null;
  detail: JobDetail | null;
  preview: string | null;
  error: string | null;
  open(jobId: string): Promise<void>;
  refresh(): Promise<void>;
  close(): void;
}

/** The job detail panel: which job, its detail and preview. */
export const useDetailStore = create<DetailStore>((set, get) => ({
  jobId: null,
  detail: null,
  preview: null,
  error: null,
  async open(jobId) {
    set({ jobId, detail: null, preview: null, error: null });
    await get().refresh();
  },
  async refresh() {
    const jobId = get().jobId;
    if (!jobId) return;
    const result = await call('jobs.get', { jobId });
    if (get().jobId !== jobId) return;
    if (!result.ok) return set({ error: result.error.message });
    set({ detail: result.value, error: null });
    if (result.value.hasPreview && get().preview === null) {
      const preview = await call('jobs.preview', { jobId });
      if (get().jobId === jobId && preview.ok) set({ preview: preview.value });
    }
  },
  close: () => set({ jobId: null, detail: null, preview: null, error: null }),
}));
