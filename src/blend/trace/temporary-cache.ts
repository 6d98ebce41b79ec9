import { basename } from 'node:path';
import type { Dependency } from './dependency';
import { KIND_LABELS } from './describe-reference';
import type { PathKind } from './path-reference';

/**
 * The names Blender gives the cache folders it makes by itself: a fluid domain's `cache_fluid` (2.8x)
 * or `cache_fluid_<hex>` (one per domain and session, BKE_fluid_cache_new_name_for_current_session), an
 * ocean's `cache_ocean` (both through BKE_modifier_path_init, which puts them in Blender's session
 * folder while the file was never saved), and the `blendcache_` folder of the point caches of a file
 * never saved (ptcache_path).
 */
const DEFAULT_NAMES: Partial<Record<PathKind, RegExp>> = {
  'fluid-cache': /^cache_fluid(_[0-9a-f]{1,8})?$/,
  'ocean-cache': /^cache_ocean$/,
  'point-cache': /^blendcache_/,
};

/** Blender's folder for one session inside the temporary folder (BKE_tempdir_session: `blender_XXXXXX`, by mkdtemp or _mktemp_s). */
const SESSION_FOLDER = /^blender_[A-Za-z0-9]{6}$/;

/**
 * The system's temporary folders, from the root of a disk: /tmp, /var/tmp, macOS's per-user
 * /var/folders/../../T (also under /private), a Windows user's AppData\Local\Temp, Windows\Temp, C:\Temp.
 */
const SYSTEM_TEMP = [/^(private\/)?(var\/)?tmp$/i, /^(private\/)?var\/folders\/[^/]+\/[^/]+\/T$/, /^(.+\/)?AppData\/Local\/Temp$/i, /^Windows\/Temp$/i, /^temp$/i];

/**
 * Whether a stored cache folder is one Blender made in its temporary folder: a default cache folder name
 * (see DEFAULT_NAMES) in Blender's session folder (`blender_XXXXXX`), or straight in a system temporary
 * folder, stored as an absolute path or as a relative one climbing out of the .blend's folder (Blender
 * makes every path relative when a file is first saved, `//../../tmp/blender_x/cache_fluid_1a2b`).
 * Blender deletes its session folder when it quits, so such a path names nothing once the file is opened
 * again. Judged from the path alone.
 */
export function isBlenderTemporaryCache(kind: PathKind, stored: string): boolean {
  const defaultName = DEFAULT_NAMES[kind];
  if (!defaultName) return false;
  const relative = stored.startsWith('//');
  const absolute = !relative && (/^[\\/]/.test(stored) || /^[A-Za-z]:[\\/]/.test(stored));
  if (!relative && !absolute) return false;
  const parts = (relative ? stored.slice(2) : stored).split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  if (absolute && /^[A-Za-z]:$/.test(parts[0] ?? '')) parts.shift();
  const name = parts.pop();
  if (name === undefined || !defaultName.test(name)) return false;
  if (SESSION_FOLDER.test(parts.at(-1) ?? '')) return true;
  let climbs = 0;
  while (parts[0] === '..') {
    parts.shift();
    climbs++;
  }
  if (parts.includes('..') || (relative && climbs === 0)) return false;
  const folder = parts.join('/');
  return SYSTEM_TEMP.some((pattern) => pattern.test(folder));
}

/** Statuses in which a temporary cache folder counts as gone (rather than found, or in trouble worth saying). */
const GONE: ReadonlySet<Dependency['status']> = new Set(['missing', 'other-system']);

/** Whether a dependency is a Blender temporary cache folder that is not on this disk: not needed, and never reported missing. */
export function isGoneTemporaryCache(dep: Pick<Dependency, 'kind' | 'stored' | 'status'>): boolean {
  return GONE.has(dep.status) && isBlenderTemporaryCache(dep.kind, dep.stored);
}

/** The note for a temporary cache folder that is gone: where it pointed and why nothing is missing. */
export function temporaryCacheNote(dep: Pick<Dependency, 'kind' | 'owner' | 'holder' | 'stored'>): string {
  return (
    `The ${KIND_LABELS[dep.kind]} "${dep.owner}" in ${basename(dep.holder)} points at ${dep.stored}, a folder Blender made in its temporary folder ` +
    'and deletes when it quits; there is nothing to send, and Blender renders the scene without it on this computer too.'
  );
}
