import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { blenderPlacesOf, type BlenderPlaceSource } from '../../node-common/blender-places';

/** How a Blender candidate was found (the places of the one locator, less the add-on installer's configured path). */
export type BlenderSource = Exclude<BlenderPlaceSource, 'configured'>;

/** A place Blender may be. */
export interface BlenderCandidate {
  path: string;
  source: BlenderSource;
}

/** File-system access {@link candidatePaths} and {@link findBlender} need; injectable for tests. */
export interface LocateFileSystem {
  /** Entry names of a folder, or [] when it cannot be read. */
  listDir(dir: string): string[];
  isDirectory(path: string): boolean;
  /** Whether `path` is a file this process may execute. */
  isExecutable(path: string): boolean;
}

/** The real file system. */
export const nodeLocateFileSystem: LocateFileSystem = {
  listDir(dir) {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  },
  isDirectory(p) {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  },
  isExecutable(p) {
    try {
      if (!statSync(p).isFile()) return false;
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
};

/** Options of {@link candidatePaths}. */
export interface CandidateOptions {
  /** A path the user gave (`--blender`); searched first. */
  explicit?: string;
  /** Lists version folders for the wildcard locations; without it those locations are skipped. */
  listDir?: (dir: string) => string[];
}

/**
 * Every place Blender may be, most specific first: the explicit path, `BLENDER_PATH`, each `PATH`
 * entry, then the usual install folders of `platform`; the one list the add-on installer uses too
 * (`node-common/blender-places`). Pure: versioned folders are expanded through `listDir`.
 */
export function candidatePaths(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  options: CandidateOptions = {},
): BlenderCandidate[] {
  return blenderPlacesOf({ platform, env, explicit: options.explicit, listDir: options.listDir ?? (() => []) }).map((place) => ({
    path: place.path,
    source: place.source === 'configured' ? 'explicit' : place.source,
  }));
}

/** Thrown when the user named a Blender that is not there: that is their mistake to fix, not a fallback. */
export class BlenderPathError extends Error {
  override readonly name = 'BlenderPathError';
}

/** Input of {@link findBlender}. */
export interface FindBlenderOptions {
  explicit?: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  fs?: LocateFileSystem;
}

/** Result of {@link findBlender}: the first usable Blender (path and source null when none) and every path looked at. */
export type FindBlenderResult =
  | { path: string; source: BlenderSource; searched: string[] }
  | { path: null; source: null; searched: string[] };

/** A folder given instead of the executable: the executable inside it, if any. */
function executableIn(dir: string, platform: NodeJS.Platform, fs: LocateFileSystem): string | null {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const inside =
    platform === 'win32'
      ? [p.join(dir, 'blender.exe')]
      : platform === 'darwin'
        ? [p.join(dir, 'Contents', 'MacOS', 'Blender'), p.join(dir, 'Blender.app', 'Contents', 'MacOS', 'Blender'), p.join(dir, 'blender')]
        : [p.join(dir, 'blender')];
  return inside.find((c) => fs.isExecutable(c)) ?? null;
}

/**
 * Find Blender: the first executable of {@link candidatePaths}. A folder given as the explicit path or
 * `BLENDER_PATH` is searched for the executable inside it. Throws {@link BlenderPathError} when the
 * explicit path is not an executable Blender.
 */
export function findBlender(options: FindBlenderOptions): FindBlenderResult {
  const fs = options.fs ?? nodeLocateFileSystem;
  const candidates = candidatePaths(options.platform, options.env, { explicit: options.explicit, listDir: fs.listDir });
  const searched: string[] = [];
  for (const candidate of candidates) {
    searched.push(candidate.path);
    const direct = candidate.source === 'explicit' || candidate.source === 'BLENDER_PATH';
    const resolved =
      direct && fs.isDirectory(candidate.path)
        ? executableIn(candidate.path, options.platform, fs)
        : fs.isExecutable(candidate.path)
          ? candidate.path
          : null;
    if (resolved) return { path: resolved, source: candidate.source, searched };
    if (candidate.source === 'explicit') {
      throw new BlenderPathError(
        `No Blender executable at ${candidate.path} (given with --blender). Check the path, or leave it out to search the usual places.`,
      );
    }
  }
  return { path: null, source: null, searched };
}
