export { startHandoverListener, type HandoverListener, type HandoverOptions, type HandoverOutcome } from './handover-listener';
export { handoverFilePath, readHandoverFile, HANDOVER_FILE_NAME, type HandoverInfo } from './handover-file';
export { submitHandedOver } from './submit-handed-over';
