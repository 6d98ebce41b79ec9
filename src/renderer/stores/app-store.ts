import { create } from 'zustand';
import type { AppState, ConnectionState } from '../../shared/contract';
import { call } from '../bridge';

/** Which page is shown. */
export type View = 'queue' | 'workers' | 'settings';

interface AppStore {
  state: AppState | null;
  /** Why the back end could not be read, when it could not. */
  error: string | null;
  view: View;
  load(): Promise<void>;
  setState(state: AppState): void;
  setConnection(connection: ConnectionState): void;
  setView(view: View): void;
}

/** The app's frame: profiles, settings, connection and Blender state, and the page shown. */
export const useAppStore = create<AppStore>((set) => ({
  state: null,
  error: null,
  view: 'queue',
  async load() {
    const result = await call('app.getState', {});
    if (result.ok) set({ state: result.value, error: null });
    else set({ error: result.error.message });
  },
  setState: (state) => set({ state, error: null }),
  setConnection: (connection) => set((s) => (s.state ? { state: { ...s.state, connection } } : {})),
  setView: (view) => set({ view }),
}));
