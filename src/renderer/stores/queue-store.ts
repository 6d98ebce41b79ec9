import { create } from 'zustand';
import type { JobFilter, JobSummary } from '../../shared/contract';
import { call } from '../bridge';

interface QueueStore {
  /** Every job of the active profile by id; mutated in place, `version` tells readers it changed. */
  byId: Map<string, JobSummary>;
  version: number;
  profileId: string | null;
  loaded: boolean;
  error: string | null;
  filter: JobFilter;
  search: string;
  selectedId: string | null;
  /** Jobs ticked for a bulk action (Remove from list). */
  checked: ReadonlySet<string>;
  /** Scenes whose earlier runs are folded away (keys from `sceneKey`). */
  collapsed: ReadonlySet<string>;
  load(): Promise<void>;
  replace(jobs: readonly JobSummary[], profileId: string | null): void;
  upsert(jobs: readonly JobSummary[]): void;
  setFilter(filter: JobFilter): void;
  setSearch(search: string): void;
  select(id: string | null): void;
  /** Ticks or unticks jobs for a bulk action. */
  setChecked(ids: readonly string[], on: boolean): void;
  clearChecked(): void;
  toggleCollapsed(scene: string): void;
}

/** The queue: every job summary, the filter chip, the search text and the selected row. */
export const useQueueStore = create<QueueStore>((set, get) => ({
  byId: new Map(),
  version: 0,
  profileId: null,
  loaded: false,
  error: null,
  filter: 'all',
  search: '',
  selectedId: null,
  checked: new Set(),
  collapsed: new Set(),
  async load() {
    const result = await call('jobs.list', {});
    if (result.ok) get().replace(result.value.jobs, result.value.profileId);
    else set({ error: result.error.message, loaded: true });
  },
  replace(jobs, profileId) {
    const byId = new Map(jobs.map((j) => [j.id, j]));
    set((s) => ({
      byId,
      profileId,
      loaded: true,
      error: null,
      version: s.version + 1,
      selectedId: s.selectedId && byId.has(s.selectedId) ? s.selectedId : null,
      checked: new Set([...s.checked].filter((id) => byId.has(id))),
    }));
  },
  upsert(jobs) {
    if (jobs.length === 0) return;
    const { byId } = get();
    for (const job of jobs) byId.set(job.id, job);
    set((s) => ({ version: s.version + 1 }));
  },
  setFilter: (filter) => set({ filter }),
  setSearch: (search) => set({ search }),
  select: (selectedId) => set({ selectedId }),
  setChecked: (ids, on) =>
    set((s) => {
      const checked = new Set(s.checked);
      for (const id of ids) {
        if (on) checked.add(id);
        else checked.delete(id);
      }
      return { checked };
    }),
  clearChecked: () => set({ checked: new Set() }),
  toggleCollapsed: (scene) =>
    set((s) => {
      const collapsed = new Set(s.collapsed);
      if (!collapsed.delete(scene)) collapsed.add(scene);
      return { collapsed };
    }),
}));
