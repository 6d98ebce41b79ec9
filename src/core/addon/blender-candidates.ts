import path from 'node:path';

/** How a Blender executable was found. */
export type BlenderOrigin = 'configured' | 'PATH' | 'installed' | 'steam';

/** A place a Blender executable may be. */
export interface BlenderPlace {
  path: string;
  origin: BlenderOrigin;
}

/** What {@link blenderPlaces} looks at; `listDir` lists a folder ([] when it cannot be read). */
export interface PlaceOptions {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** Blenders the person chose (settings, `--blender`): first, in this order. */
  configured?: readonly string[];
  listDir: (dir: string) => string[];
}

function envOf(env: NodeJS.ProcessEnv, name: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') return env[name] || undefined;
  const key = Object.keys(env).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : env[key] || undefined;
}

function versionFolders(listDir: PlaceOptions['listDir'], dir: string): string[] {
  const nums = (s: string) => (s.match(/\d+/g) ?? []).map(Number);
  return listDir(dir)
    .filter((name) => /^blender/i.test(name))
    .sort((a, b) => {
      const [x, y] = [nums(a), nums(b)];
      for (let i = 0; i < Math.max(x.length, y.length); i++) if ((y[i] ?? -1) !== (x[i] ?? -1)) return (y[i] ?? -1) - (x[i] ?? -1);
      return a.localeCompare(b);
    });
}

function osPlaces(o: PlaceOptions, home: string | undefined): BlenderPlace[] {
  const p = o.platform === 'win32' ? path.win32 : path.posix;
  const out: BlenderPlace[] = [];
  if (o.platform === 'win32') {
    const roots = [envOf(o.env, 'ProgramFiles', o.platform) ?? 'C:\\Program Files', envOf(o.env, 'ProgramFiles(x86)', o.platform) ?? 'C:\\Program Files (x86)'];
    for (const root of roots) {
      const foundation = p.join(root, 'Blender Foundation');
      for (const name of versionFolders(o.listDir, foundation)) out.push({ path: p.join(foundation, name, 'blender.exe'), origin: 'installed' });
    }
    for (const root of roots) out.push({ path: p.join(root, 'Steam', 'steamapps', 'common', 'Blender', 'blender.exe'), origin: 'steam' });
  } else if (o.platform === 'darwin') {
    const app = ['Blender.app', 'Contents', 'MacOS', 'Blender'];
    for (const dir of ['/Applications', ...(home ? [p.join(home, 'Applications')] : [])]) {
      out.push({ path: p.join(dir, ...app), origin: 'installed' });
      for (const name of versionFolders(o.listDir, dir).filter((n) => n.endsWith('.app') && n !== 'Blender.app')) {
        out.push({ path: p.join(dir, name, 'Contents', 'MacOS', 'Blender'), origin: 'installed' });
      }
    }
    if (home) out.push({ path: p.join(home, 'Library', 'Application Support', 'Steam', 'steamapps', 'common', 'Blender', ...app), origin: 'steam' });
  } else {
    for (const exe of ['/usr/bin/blender', '/usr/local/bin/blender', '/snap/bin/blender']) out.push({ path: exe, origin: 'installed' });
    for (const name of versionFolders(o.listDir, '/opt')) out.push({ path: p.join('/opt', name, 'blender'), origin: 'installed' });
    out.push({ path: '/var/lib/flatpak/exports/bin/org.blender.Blender', origin: 'installed' });
    if (home) {
      out.push({ path: p.join(home, '.local', 'share', 'flatpak', 'exports', 'bin', 'org.blender.Blender'), origin: 'installed' });
      out.push({ path: p.join(home, '.steam', 'steam', 'steamapps', 'common', 'Blender', 'blender'), origin: 'steam' });
      out.push({ path: p.join(home, '.local', 'share', 'Steam', 'steamapps', 'common', 'Blender', 'blender'), origin: 'steam' });
    }
  }
  return out;
}

/**
 * Every place a Blender may be, most specific first and each path once: the configured ones, each
 * `PATH` entry, then the usual install folders of the platform (versioned folders newest first) and
 * Steam's. Pure apart from `listDir`.
 */
export function blenderPlaces(o: PlaceOptions): BlenderPlace[] {
  const p = o.platform === 'win32' ? path.win32 : path.posix;
  const exe = o.platform === 'win32' ? 'blender.exe' : 'blender';
  const out: BlenderPlace[] = [];
  const add = (place: BlenderPlace) => {
    if (!out.some((c) => c.path === place.path)) out.push(place);
  };
  for (const configured of o.configured ?? []) add({ path: configured, origin: 'configured' });
  for (const dir of (envOf(o.env, 'PATH', o.platform) ?? '').split(o.platform === 'win32' ? ';' : ':')) {
    const clean = dir.trim().replace(/^"(.*)"$/, '$1');
    if (clean !== '') add({ path: p.join(clean, exe), origin: 'PATH' });
  }
  for (const place of osPlaces(o, envOf(o.env, o.platform === 'win32' ? 'USERPROFILE' : 'HOME', o.platform))) add(place);
  return out;
}
