/** What other rooms of renderer use of renderer/stores: the room's public surface. */
export { useAppStore } from './app-store';
export { confirmFirst, type ConfirmRequest, useConfirmStore } from './confirm-store';
export { useDetailStore } from './detail-store';
export { type FileBrowserRequest, useFileBrowserStore } from './file-browser-store';
export { imageKey, type ImageState, useFramesStore } from './frames-store';
export { useNotificationsStore } from './notifications-store';
export { usePreviewsStore } from './previews-store';
export { usePriorityStore } from './priority-store';
export { selectVisibleQueue } from './queue-selectors';
export { useQueueStore } from './queue-store';
export { type DroppedFile, useSubmissionsStore } from './submissions-store';
export { useSyncStore } from './sync-store';
export { useTransfersStore } from './transfers-store';
