/**
 * Reading .blend files without Blender, tracing what a scene needs from disk, and packing it into a
 * bundle that renders the same elsewhere.
 */
export { BlendFile } from './blend-file';
export { BlendFileError, type BlendFileErrorCode } from './blend-file-error';
export type { BundleEntry, BundlePlan, PlannedBlend, PlannedDependency } from './bundle-plan';
export { needsPacking } from './bundle-plan';
export type { DependencyStatus } from './dependency';
export { KIND_LABELS } from './describe-reference';
export { hasZstd } from './open-byte-source';
export type { DependencyKind, PathShape } from './path-reference';
export { PathRewriteError } from './rewrite-paths';
export { BundleNameClashError, traceScene } from './trace-scene';
export type { TraceOptions } from './trace-blends';
export { PackError, writeBundle, type PackProgress, type WriteBundleOptions, type WriteBundleResult } from './write-bundle';
