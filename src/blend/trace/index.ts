/** What other layers use of blend/trace: the room's public surface. */
export { isMissing } from './dependency';
export { KIND_LABELS } from './describe-reference';
export { BLEND_BACKUP } from './disk-probe';
export { BundleNameClashError, traceScene } from './trace-scene';
