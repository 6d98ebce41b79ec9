import { create } from 'zustand';
import type { NotificationView } from '../../shared/contract';

const KEEP = 5;

interface NotificationsStore {
  items: NotificationView[];
  push(item: NotificationView): void;
  dismiss(id: string): void;
}

/** In-app notifications, newest first, at most five. */
export const useNotificationsStore = create<NotificationsStore>((set) => ({
  items: [],
  push: (item) => set((s) => ({ items: [item, ...s.items.filter((i) => i.id !== item.id)].slice(0, KEEP) })),
  dismiss: (id) => set((s) => ({ items: s.items.filter((i) => i.id !== id) })),
}));
