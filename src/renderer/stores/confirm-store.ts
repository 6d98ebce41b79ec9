import { create } from 'zustand';

/** A question that needs a yes before something is lost. */
export interface ConfirmRequest {
  title: string;
  /** What will be lost, in a sentence or two. */
  message: string;
  /** The button that does it ("Cancel render"). */
  confirm: string;
  /** The button that leaves things as they are ("Keep rendering"). */
  keep: string;
}

interface ConfirmStore {
  open: (ConfirmRequest & { answer: (yes: boolean) => void }) | null;
  /** Shows the question (replacing one still open, which is answered no) and resolves with the answer. */
  ask(request: ConfirmRequest): Promise<boolean>;
  answer(yes: boolean): void;
}

/** The confirm dialog: at most one question at a time. */
export const useConfirmStore = create<ConfirmStore>((set, get) => ({
  open: null,
  ask: (request) =>
    new Promise<boolean>((resolve) => {
      get().open?.answer(false);
      set({ open: { ...request, answer: resolve } });
    }),
  answer(yes) {
    const current = get().open;
    set({ open: null });
    current?.answer(yes);
  },
}));

/** Asks the artist before something is lost; true when they confirmed. */
export function confirmFirst(request: ConfirmRequest): Promise<boolean> {
  return useConfirmStore.getState().ask(request);
}
