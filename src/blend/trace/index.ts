/** What other layers use of blend/trace: the room's public surface. */
export { isMissing } from './dependency';
export { KIND_LABELS } from './describe-reference';
export { BLEND_BACKUP } from './disk-probe';
export { collectReferences } from './collect-references';
export type { Dependency } from './dependency';
export type { PathReference } from './path-reference';
export { endsWithSeparator, isBlendRelative, isWindowsAbsolute, type PathPlatform, storedBaseName } from './stored-path';
export { traceBlends, type TracedBlend, type TraceOptions } from './trace-blends';
