import { create } from 'zustand';

/** What the file browser is opened for. */
export interface FileBrowserRequest {
  /** A scene dropped in the browser that the picked scenes replace (it is cancelled once they are sent). */
  replaces?: string;
  /** Why it opened, said at its top (a dropped folder). */
  note?: string;
  /** The folder to show first (default: the last one shown). */
  start?: string;
  /** Opened to choose a folder instead of scenes: its title, and what to do with the folder chosen. */
  chooseFolder?: { title: string; onChoose(path: string): void };
}

interface FileBrowserStore {
  open: FileBrowserRequest | null;
  show(request?: FileBrowserRequest): void;
  close(): void;
}

/** Whether Renderdrop's file browser (browser mode's way to open scenes from this computer) is open, and for what. */
export const useFileBrowserStore = create<FileBrowserStore>((set) => ({
  open: null,
  show: (request = {}) => set({ open: request }),
  close: () => set({ open: null }),
}));
