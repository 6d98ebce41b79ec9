/** What other layers use of core/transfer: the room's public surface. */
export { bytesTimeLeft, ProgressMeter, type TransferProgress } from './progress-meter';
export { isTransientNetworkError, looksExpired, readSmallBody, STORAGE_HEADERS, transportFor } from './http-transport';
