/** What other rooms of render-node use of render-node/disk: the room's public surface. */
export { acquireDataLock, type DataLock } from './data-lock';
export { DiskReserve } from './disk-reserve';
export { diskFullReason, freeBytes, freeBytesSync, isDiskFullError, notEnoughSpaceReason } from './disk-space';
export { safeFileName } from './safe-file-name';
export { Storage } from './storage';
