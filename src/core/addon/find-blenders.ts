import { execFile } from 'node:child_process';
import { accessSync, constants, readdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { blenderPlaces, type BlenderOrigin } from './blender-candidates';
import { addonSupports, parseBlenderVersion } from './blender-version';
import { userAddonsDir } from './user-addons-dir';

/** One Blender on this computer, and where it loads a user's add-ons from. */
export interface BlenderInstall {
  /** The executable. */
  path: string;
  /** "4.2.1". */
  version: string;
  /** "4.2": the name of its user folder. */
  series: string;
  origin: BlenderOrigin;
  /** The user add-on folder (`.../scripts/addons`) of this version, or BLENDER_USER_SCRIPTS'. */
  addonsDir: string;
  /** Whether the add-on supports this version (3.3 and newer). */
  supported: boolean;
}

/** Options of {@link findBlenders} and {@link inspectBlender}. */
export interface FindBlendersOptions {
  /** Blenders the person chose (settings, `--blender`), looked at first. */
  configured?: readonly string[];
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  home?: string;
  /** How long `blender --version` may take (default 20 s). */
  timeoutMs?: number;
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A folder given instead of the executable: the executable inside it; a file: itself. */
function executableAt(given: string, platform: NodeJS.Platform): string | null {
  if (isExecutable(given)) return given;
  const inside = platform === 'win32' ? ['blender.exe'] : platform === 'darwin' ? ['Contents/MacOS/Blender', 'Blender.app/Contents/MacOS/Blender', 'blender'] : ['blender'];
  return inside.map((name) => path.join(given, name)).find(isExecutable) ?? null;
}

function versionOutput(exe: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    execFile(exe, ['--version'], { env, timeout: timeoutMs, maxBuffer: 1 << 20, windowsHide: true }, (_error, stdout) => resolve(String(stdout ?? '')));
  });
}

/**
 * The Blender at `given` (the executable or its folder) with its version and user add-on folder, or
 * null when it is not a Blender that answers `--version`.
 */
export async function inspectBlender(given: string, options: FindBlendersOptions = {}, origin: BlenderOrigin = 'configured'): Promise<BlenderInstall | null> {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const exe = executableAt(path.resolve(given), platform);
  if (!exe) return null;
  const version = parseBlenderVersion(await versionOutput(exe, env, options.timeoutMs ?? 20_000));
  if (!version) return null;
  const addonsDir = userAddonsDir(version.series, { platform, env, home: options.home ?? homedir() });
  return { path: exe, ...version, origin, addonsDir, supported: addonSupports(version.series) };
}

/**
 * Every Blender on this computer: the configured ones, those on PATH, in the usual install folders
 * and Steam's, each executable once (links followed), with its version (`blender --version`) and its
 * user add-on folder (BLENDER_USER_SCRIPTS honoured). Newest version first.
 */
export async function findBlenders(options: FindBlendersOptions = {}): Promise<BlenderInstall[]> {
  const platform = options.platform ?? process.platform;
  const places = blenderPlaces({ platform, env: options.env ?? process.env, configured: options.configured ?? [], listDir });
  const seen = new Set<string>();
  const unique: { path: string; origin: BlenderOrigin }[] = [];
  for (const place of places) {
    const exe = place.origin === 'configured' ? executableAt(place.path, platform) : isExecutable(place.path) ? place.path : null;
    if (!exe) continue;
    let real: string;
    try {
      real = realpathSync(exe);
    } catch {
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    unique.push({ path: exe, origin: place.origin });
  }
  const found = await Promise.all(unique.map((u) => inspectBlender(u.path, options, u.origin)));
  return found.filter((b): b is BlenderInstall => b !== null).sort((a, b) => compareVersions(b.version, a.version));
}

function compareVersions(a: string, b: string): number {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}
