import { createHash } from 'node:crypto';
import type { BlendCompression } from '../reader';
import type { Dependency } from '../trace';
import { storedUnread } from './entry-method';
import type { BlendPatch } from './rewrite-paths';
import { zipSizeBound } from './zip-writer';

/** A .blend that goes into the bundle: the scene (first) or a library. */
export interface PlannedBlend {
  path: string;
  /** Its name inside the bundle. */
  entry: string;
  /** The .blend that links it (null for the scene). */
  linkedFrom: string | null;
  compression: BlendCompression | null;
  version: number | null;
  /** Bytes Blender reads from the original (decompressed). */
  sourceSize: number;
  /** Bytes of the copy in the bundle (decompressed, paths rewritten). */
  size: number;
  /** Path fields rewritten in the copy so they point inside the bundle. */
  patches: BlendPatch[];
  /** Why it could not be read; it then travels unchanged. */
  error: string | null;
}

/** A dependency as the plan reports it. */
export interface PlannedDependency extends Omit<Dependency, 'slot'> {
  /** Where it is in the bundle (file, numbered pattern or folder), null when it does not travel. */
  bundlePath: string | null;
  /** Found on disk, but (some of) its files were left out of the bundle on purpose (see leaveOut). */
  leftOut?: boolean;
}

/** One file of the bundle, in the order written. */
export interface BundleEntry {
  name: string;
  /** The file on disk it is read from. */
  source: string;
  /** Bytes stored for it (for a .blend: its decompressed, rewritten copy). */
  size: number;
  mtimeMs: number;
  /** Index into `blends` when the entry is a copy of a .blend, else null (copied byte for byte). */
  blend: number | null;
}

/**
 * Everything needed to show what travels with a scene and to write its bundle: the scene and its
 * libraries, every dependency (found, packed, missing), the bundle's entries and size. Plain data
 * (JSON-safe). The same plan always gives the same bundle bytes.
 */
export interface BundlePlan {
  scene: string;
  sceneEntry: string;
  blends: PlannedBlend[];
  dependencies: PlannedDependency[];
  /** Required dependencies that will not travel, each with a `problem` for the artist. */
  missing: PlannedDependency[];
  notes: string[];
  entries: BundleEntry[];
  /** Bytes of all entries before compression. */
  totalBytes: number;
  /** Changes when any input (file, size, modification time, rewrite) changes. */
  fingerprint: string;
}

/** Whether the scene needs a bundle: something beside the .blend must travel with it. */
export function needsPacking(plan: BundlePlan): boolean {
  return plan.entries.length > 1;
}

/**
 * The most bytes the bundle of a plan can take once written (its zip: every entry's bytes, deflated
 * ones at their worst, and the zip's headers), from the plan alone, before anything is read.
 */
export function bundleSizeBound(plan: BundlePlan): number {
  return zipSizeBound(plan.entries.map((entry) => ({ name: entry.name, size: entry.size, mayDeflate: entry.blend !== null || !storedUnread(entry.source) })));
}

/**
 * The plan with the files at `sources` (paths on disk) left out of the bundle: their entries go, the
 * dependencies using them are marked `leftOut` (they keep their place in the bundle, where the farm
 * finds nothing), and the size and fingerprint follow. The scene itself is never left out.
 */
export function leaveOut(plan: BundlePlan, sources: ReadonlySet<string>): BundlePlan {
  if (sources.size === 0) return plan;
  const gone = (path: string) => path !== plan.scene && sources.has(path);
  const entries = plan.entries.filter((entry) => !gone(entry.source));
  const dependencies = plan.dependencies.map((dep) =>
    dep.status === 'found' && dep.files.some((file) => gone(file.path)) ? { ...dep, leftOut: true } : dep,
  );
  const fingerprint = createHash('sha256').update(plan.fingerprint).update(JSON.stringify([...sources].filter(gone).sort())).digest('hex');
  return { ...plan, entries, dependencies, totalBytes: entries.reduce((sum, e) => sum + e.size, 0), fingerprint };
}
