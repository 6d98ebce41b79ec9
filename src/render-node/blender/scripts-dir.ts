import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding Renderdrop's Blender scripts (`resources/blender`), found by walking up from
 * `from` (this module's URL by default) so it works from the sources and from a bundle in `out/`.
 */
export function blenderScriptsDir(from: string = import.meta.url, exists: (path: string) => boolean = existsSync): string {
  let dir = dirname(from.startsWith('file:') ? fileURLToPath(from) : from);
  for (;;) {
    const candidate = join(dir, 'resources', 'blender');
    if (exists(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Renderdrop's Blender scripts (resources/blender) were not found above ${from}.`);
    dir = parent;
  }
}

/** Absolute path of one script in {@link blenderScriptsDir}. */
export function blenderScript(name: string): string {
  return join(blenderScriptsDir(), name);
}
