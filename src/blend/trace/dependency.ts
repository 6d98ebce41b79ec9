import type { FoundFile } from './disk-probe';
import type { PathKind, PathShape, PathSlot } from './path-reference';

/**
 * Where a dependency stands: found on disk, packed inside the .blend, or why it cannot travel.
 * `other-system`: a Windows path met on macOS or Linux. `not-a-file`: a folder (or device) where a file
 * is expected. `empty`: the setting holds no path. `skipped`: a cache folder too broad to pack (the
 * scene's own folder or above it). `outside`: a folder (a cache folder, the folder of a numbered
 * sequence) that was not read because it lies outside the project (TraceOptions.mayList).
 */
export type DependencyStatus = 'found' | 'packed' | 'missing' | 'other-system' | 'not-a-file' | 'unreadable' | 'empty' | 'skipped' | 'outside';

/** One path a .blend (the scene or one of its libraries) depends on, and what is on disk for it. */
export interface Dependency {
  kind: PathKind;
  /** Name of the data-block holding the path (image, sound, object...). */
  owner: string;
  /** The path exactly as the .blend stores it. */
  stored: string;
  /** The .blend holding the path (absolute). */
  holder: string;
  shape: PathShape;
  /** The folder inside `stored` that is read (see PathReference.subfolder); `resolved` already ends with it. */
  subfolder?: string;
  /** False for paths Blender lists but rendering never reads (brush icons, asset origins). */
  required: boolean;
  status: DependencyStatus;
  /** Where the path points on this disk (file, numbered pattern or folder), null when nowhere. */
  resolved: string | null;
  /** The files it stands for (several for sequences, UDIM tiles and cache folders). */
  files: FoundFile[];
  /** Bytes of those files. */
  size: number;
  /**
   * Files of a numbered sequence or UDIM image that are not on this disk although the rest is: frames
   * missing between its first and last frame, tiles the image lists but the disk lacks (paths on this disk).
   */
  absent?: string[];
  /** Folders below a found folder that were not read because they lead outside the project (through a link). */
  outside?: string[];
  /** What is wrong, said for the artist; null when found or packed. */
  problem: string | null;
  /** Where the path is stored in the holder, to point a copy elsewhere. */
  slot: PathSlot | null;
}

/** Statuses that leave a required dependency missing on the farm. */
export const MISSING_STATUSES: ReadonlySet<DependencyStatus> = new Set(['missing', 'other-system', 'not-a-file', 'unreadable']);

/** Whether a dependency is needed and will not travel. */
export function isMissing(dependency: Pick<Dependency, 'required' | 'status'>): boolean {
  return dependency.required && MISSING_STATUSES.has(dependency.status);
}
