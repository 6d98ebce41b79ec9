import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Python package name of the add-on, and its folder name in Blender's add-on folder. */
export const ADDON_MODULE = 'renderdrop_blender';

/** The add-on as Renderdrop ships it: its folder, its files (relative, `/`-separated) and its version. */
export interface AddonSource {
  dir: string;
  files: string[];
  version: string;
}

/**
 * The folder of the add-on Renderdrop ships (`addon/renderdrop_blender`), found by walking up from
 * `from` (this module by default): it is at the top of the repository and in a packaged app's
 * resources, so the sources, the built CLI in `out/` and the app all find it.
 */
export function addonSourceDir(from: string = import.meta.url, exists: (path: string) => boolean = existsSync): string {
  let dir = dirname(from.startsWith('file:') ? fileURLToPath(from) : from);
  for (;;) {
    const candidate = join(dir, 'addon', ADDON_MODULE);
    if (exists(join(candidate, '__init__.py'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`The Blender add-on (addon/${ADDON_MODULE}) was not found above ${from}.`);
    dir = parent;
  }
}

/** The version in an add-on's `bl_info` (`"version": (1, 2, 0)` gives "1.2.0"), or "0". */
export function addonVersionOf(initPy: string): string {
  const match = /["']version["']\s*:\s*\(([\d\s,]+)\)/.exec(initPy);
  return match ? match[1]!.split(',').map((part) => part.trim()).filter(Boolean).join('.') : '0';
}

/** The shipped add-on: its Python files and its extension manifest (no caches), and its version. */
export function readAddonSource(dir: string = addonSourceDir()): AddonSource {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && (entry.name.endsWith('.py') || entry.name === 'blender_manifest.toml'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .filter((file) => !file.split('/').includes('__pycache__'))
    .sort();
  return { dir, files, version: addonVersionOf(readFileSync(join(dir, '__init__.py'), 'utf8')) };
}
