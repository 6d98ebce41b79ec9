import path from 'node:path';

/** How a place where Blender may be was found. */
export type BlenderPlaceSource =
  | 'explicit'
  | 'configured'
  | 'BLENDER_PATH'
  | 'PATH'
  | 'program-files'
  | 'steam'
  | 'applications'
  | 'system'
  | 'snap'
  | 'flatpak'
  | 'opt';

/** A place a Blender executable may be. */
export interface BlenderPlaceFound {
  path: string;
  source: BlenderPlaceSource;
}

/** What {@link blenderPlacesOf} looks at; `listDir` lists a folder ([] when it cannot be read). */
export interface BlenderPlaceOptions {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** A Blender named for this run (`--blender`): first. */
  explicit?: string | undefined;
  /** Blenders the person chose before (settings, the app's Blender): next, in this order. */
  configured?: readonly string[];
  listDir: (dir: string) => string[];
}

/** Environment variable lookup that is case-insensitive on Windows, like the OS. */
function envValue(env: NodeJS.ProcessEnv, name: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') return env[name] || undefined;
  const key = Object.keys(env).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : env[key] || undefined;
}

/** Folder names that start with "blender" (any case), newest version first. */
function versionFolders(listDir: BlenderPlaceOptions['listDir'], dir: string): string[] {
  const nums = (s: string) => (s.match(/\d+/g) ?? []).map(Number);
  return listDir(dir)
    .filter((name) => /^blender/i.test(name))
    .sort((a, b) => {
      const [x, y] = [nums(a), nums(b)];
      for (let i = 0; i < Math.max(x.length, y.length); i++) if ((y[i] ?? -1) !== (x[i] ?? -1)) return (y[i] ?? -1) - (x[i] ?? -1);
      return a.localeCompare(b);
    });
}

/**
 * The one list of places Blender may be, used by the render node, its workers and the add-on
 * installer; most specific first and each path once: the explicit path, the configured ones,
 * `BLENDER_PATH`, each `PATH` entry, then the usual install folders of the platform (versioned
 * folders and macOS bundles such as `Blender 4.2.app` newest first), Snap, Flatpak and Steam. Pure
 * apart from `listDir`.
 */
export function blenderPlacesOf(o: BlenderPlaceOptions): BlenderPlaceFound[] {
  const { platform, env, listDir } = o;
  const p = platform === 'win32' ? path.win32 : path.posix;
  const exe = platform === 'win32' ? 'blender.exe' : 'blender';
  const home = envValue(env, platform === 'win32' ? 'USERPROFILE' : 'HOME', platform);
  const out: BlenderPlaceFound[] = [];
  const add = (candidate: string | undefined, source: BlenderPlaceSource) => {
    if (candidate && !out.some((c) => c.path === candidate)) out.push({ path: candidate, source });
  };
  add(o.explicit, 'explicit');
  for (const configured of o.configured ?? []) add(configured, 'configured');
  add(envValue(env, 'BLENDER_PATH', platform), 'BLENDER_PATH');
  for (const dir of (envValue(env, 'PATH', platform) ?? '').split(platform === 'win32' ? ';' : ':')) {
    const clean = dir.trim().replace(/^"(.*)"$/, '$1');
    if (clean !== '') add(p.join(clean, exe), 'PATH');
  }
  if (platform === 'win32') {
    const roots = [envValue(env, 'ProgramFiles', platform) ?? 'C:\\Program Files', envValue(env, 'ProgramFiles(x86)', platform) ?? 'C:\\Program Files (x86)'];
    for (const root of roots) {
      const foundation = p.join(root, 'Blender Foundation');
      for (const name of versionFolders(listDir, foundation)) add(p.join(foundation, name, exe), 'program-files');
    }
    for (const root of roots) add(p.join(root, 'Steam', 'steamapps', 'common', 'Blender', exe), 'steam');
  } else if (platform === 'darwin') {
    const inside = ['Contents', 'MacOS', 'Blender'];
    for (const dir of ['/Applications', ...(home ? [p.join(home, 'Applications')] : [])]) {
      add(p.join(dir, 'Blender.app', ...inside), 'applications');
      for (const name of versionFolders(listDir, dir).filter((n) => n.endsWith('.app') && n !== 'Blender.app')) add(p.join(dir, name, ...inside), 'applications');
    }
    if (home) add(p.join(home, 'Library', 'Application Support', 'Steam', 'steamapps', 'common', 'Blender', 'Blender.app', ...inside), 'steam');
  } else {
    add('/usr/bin/blender', 'system');
    add('/usr/local/bin/blender', 'system');
    add('/snap/bin/blender', 'snap');
    for (const name of versionFolders(listDir, '/opt')) add(p.join('/opt', name, 'blender'), 'opt');
    add('/var/lib/flatpak/exports/bin/org.blender.Blender', 'flatpak');
    if (home) {
      add(p.join(home, '.local', 'share', 'flatpak', 'exports', 'bin', 'org.blender.Blender'), 'flatpak');
      add(p.join(home, '.steam', 'steam', 'steamapps', 'common', 'Blender', 'blender'), 'steam');
      add(p.join(home, '.local', 'share', 'Steam', 'steamapps', 'common', 'Blender', 'blender'), 'steam');
    }
  }
  return out;
}
