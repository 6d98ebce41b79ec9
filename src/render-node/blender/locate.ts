import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** How a Blender candidate was found. */
export type BlenderSource =
  | 'explicit'
  | 'BLENDER_PATH'
  | 'PATH'
  | 'program-files'
  | 'steam'
  | 'applications'
  | 'system'
  | 'snap'
  | 'flatpak'
  | 'opt';

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

/** Environment variable lookup that is case-insensitive on Windows, like the OS. */
function envValue(env: NodeJS.ProcessEnv, name: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') return env[name] || undefined;
  const key = Object.keys(env).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : env[key] || undefined;
}

/** Compare dotted version strings found in folder names, newest first. */
function byVersionDesc(a: string, b: string): number {
  const nums = (s: string) => (s.match(/\d+/g) ?? []).map(Number);
  const x = nums(a);
  const y = nums(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (y[i] ?? -1) - (x[i] ?? -1);
    if (d !== 0) return d;
  }
  return b.localeCompare(a);
}

/**
 * Every place Blender may be, most specific first: the explicit path, `BLENDER_PATH`, each `PATH`
 * entry, then the usual install folders of `platform`. Pure: folders with a version in their name
 * (Windows "Blender X.Y", Linux /opt/blender*) are expanded through `listDir`, newest first.
 */
export function candidatePaths(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  options: CandidateOptions = {},
): BlenderCandidate[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const listDir = options.listDir ?? (() => []);
  const exe = platform === 'win32' ? 'blender.exe' : 'blender';
  const home = envValue(env, platform === 'win32' ? 'USERPROFILE' : 'HOME', platform);
  const out: BlenderCandidate[] = [];
  const add = (candidate: string | undefined, source: BlenderSource) => {
    if (candidate && !out.some((c) => c.path === candidate)) out.push({ path: candidate, source });
  };

  add(options.explicit, 'explicit');
  add(envValue(env, 'BLENDER_PATH', platform), 'BLENDER_PATH');
  const pathVar = envValue(env, 'PATH', platform) ?? '';
  for (const dir of pathVar.split(platform === 'win32' ? ';' : ':')) {
    const clean = dir.trim().replace(/^"(.*)"$/, '$1');
    if (clean !== '') add(p.join(clean, exe), 'PATH');
  }

  if (platform === 'win32') {
    const programFiles = [
      envValue(env, 'ProgramFiles', platform) ?? 'C:\\Program Files',
      envValue(env, 'ProgramFiles(x86)', platform) ?? 'C:\\Program Files (x86)',
    ];
    for (const root of programFiles) {
      const foundation = p.join(root, 'Blender Foundation');
      const versions = listDir(foundation)
        .filter((name) => /^blender/i.test(name))
        .sort(byVersionDesc);
      for (const name of versions) add(p.join(foundation, name, exe), 'program-files');
    }
    for (const root of programFiles) add(p.join(root, 'Steam', 'steamapps', 'common', 'Blender', exe), 'steam');
  } else if (platform === 'darwin') {
    const app = ['Blender.app', 'Contents', 'MacOS', 'Blender'];
    add(p.join('/Applications', ...app), 'applications');
    if (home) add(p.join(home, 'Applications', ...app), 'applications');
    if (home) {
      add(p.join(home, 'Library', 'Application Support', 'Steam', 'steamapps', 'common', 'Blender', ...app), 'steam');
    }
  } else {
    add('/usr/bin/blender', 'system');
    add('/usr/local/bin/blender', 'system');
    add('/snap/bin/blender', 'snap');
    const opt = listDir('/opt')
      .filter((name) => /^blender/i.test(name))
      .sort(byVersionDesc);
    for (const name of opt) add(p.join('/opt', name, 'blender'), 'opt');
    add('/var/lib/flatpak/exports/bin/org.blender.Blender', 'flatpak');
    if (home) {
      add(p.join(home, '.local', 'share', 'flatpak', 'exports', 'bin', 'org.blender.Blender'), 'flatpak');
      add(p.join(home, '.steam', 'steam', 'steamapps', 'common', 'Blender', 'blender'), 'steam');
      add(p.join(home, '.local', 'share', 'Steam', 'steamapps', 'common', 'Blender', 'blender'), 'steam');
    }
  }
  return out;
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
