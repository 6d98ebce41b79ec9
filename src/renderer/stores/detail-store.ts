import { create } from 'zustand';
import type { JobDetail } from '../../shared/contract';
import { call } from '../bridge';
import { useFramesStore } from './frames-store';

interface DetailStore {
  jobId: string | null;
  detail: JobDetail | null;
  /** The job's preview (the last rendered frame while it renders), as a data URL. */
  preview: string | null;
  /** What the preview shows: status and frames done when it was fetched. */
  previewOf: string | null;
  error: string | null;
  open(jobId: string): Promise<void>;
  refresh(): Promise<void>;
  close(): void;
}

/** When a job's preview may have changed: its status and the frames done. */
function previewMoment(detail: JobDetail): string {
  return `${detail.summary.status}:${detail.summary.completedFrames}`;
}

/** The job detail panel: which job, its detail, its preview (fetched again as frames are rendered) and its frames. */
export const useDetailStore = create<DetailStore>((set, get) => ({
  jobId: null,
  detail: null,
  preview: null,
  previewOf: null,
  error: null,
  async open(jobId) {
    set({ jobId, detail: null, preview: null, previewOf: null, error: null });
    await get().refresh();
  },
  async refresh() {
    const jobId = get().jobId;
    if (!jobId) return;
    const result = await call('jobs.get', { jobId });
    if (get().jobId !== jobId) return;
    if (!result.ok) return set({ error: result.error.message });
    set({ detail: result.value, error: null });
    void useFramesStore.getState().load(jobId);
    const moment = previewMoment(result.value);
    if (result.value.hasPreview && get().previewOf !== moment) {
      set({ previewOf: moment });
      const preview = await call('jobs.preview', { jobId });
      if (get().jobId === jobId && preview.ok && preview.value !== null) set({ preview: preview.value });
    }
  },
  close: () => {
    useFramesStore.getState().clear();
    set({ jobId: null, detail: null, preview: null, previewOf: null, error: null });
  },
}));
