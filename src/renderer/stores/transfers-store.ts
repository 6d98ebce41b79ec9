import { create } from 'zustand';
import type { TransferView } from '../../shared/contract';

interface TransfersStore {
  byId: Record<string, TransferView>;
  apply(transfer: TransferView): void;
}

/** Upload and download progress by transfer id (`upload:<submission>`, `download:<job>`). */
export const useTransfersStore = create<TransfersStore>((set) => ({
  byId: {},
  apply: (transfer) => set((s) => ({ byId: { ...s.byId, [transfer.id]: transfer } })),
}));
