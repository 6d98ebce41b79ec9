/**
 * Reading .blend files without Blender, tracing what a scene needs from disk, and packing it into a
 * bundle that renders the same elsewhere.
 */
export { BlendFile } from './reader/blend-file';
export { BlendFileError, type BlendFileErrorCode } from './reader/blend-file-error';
export type { BundleEntry, BundlePlan, PlannedBlend, PlannedDependency } from './pack/bundle-plan';
export { needsPacking } from './pack/bundle-plan';
export type { DependencyStatus } from './trace/dependency';
export { KIND_LABELS } from './trace/describe-reference';
export { hasZstd } from './reader/open-byte-source';
export type { DependencyKind, PathShape } from './trace/path-reference';
export { PathRewriteError } from './pack/rewrite-paths';
export { BundleNameClashError, traceScene } from './trace/trace-scene';
export type { TraceOptions } from './trace/trace-blends';
export { PackError, writeBundle, type PackProgress, type WriteBundleOptions, type WriteBundleResult } from './pack/write-bundle';
