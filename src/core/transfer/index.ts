/** What other layers use of core/transfer: the room's public surface. */
export { type TransferProgress } from './progress-meter';
