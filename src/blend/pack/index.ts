/** What other layers use of blend/pack: the room's public surface. */
export { type BundleEntry, type BundlePlan, bundleSizeBound, leaveOut, needsPacking, type PlannedBlend, type PlannedDependency } from './bundle-plan';
export { PathRewriteError } from './rewrite-paths';
export { type SeveredPath, severOutsidePaths } from './sever-outside-paths';
export { PackError, type PackProgress, writeBundle } from './write-bundle';
export { BundleNameClashError, traceScene } from './trace-scene';
