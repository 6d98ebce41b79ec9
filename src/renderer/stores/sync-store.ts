import { create } from 'zustand';
import type { SyncView } from '../../shared/contract';
import { call } from '../bridge';

interface SyncStore {
  /** How current the queue is, as the back end last said. */
  view: SyncView | null;
  /** Whether a check asked from here is under way. */
  asking: boolean;
  set(view: SyncView): void;
  /** Checks the queue against the server now (the window came back, the refresh button). */
  syncNow(): Promise<void>;
}

/** When the queue was last checked against the server, and the way to check it now. */
export const useSyncStore = create<SyncStore>((set, get) => ({
  view: null,
  asking: false,
  set: (view) => set({ view }),
  async syncNow() {
    if (get().asking) return;
    set({ asking: true });
    const result = await call('jobs.sync', {});
    set(result.ok ? { view: result.value, asking: false } : { asking: false });
  },
}));
