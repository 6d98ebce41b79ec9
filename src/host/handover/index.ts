export { handedOverProgress } from './handed-over-progress';
export { startHandoverListener, type HandedOverProgress, type HandoverListener, type HandoverOptions, type HandoverOutcome } from './handover-listener';
export { handoverFilePath, readHandoverFile, HANDOVER_FILE_NAME, type HandoverInfo } from './handover-file';
export { submitHandedOver } from './submit-handed-over';
