import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of the built renderer: `RENDERDROP_RENDERER_DIR` when set, else `out/renderer` of the
 * package this code runs from (found by walking up to its package.json).
 */
export function rendererDir(env: Record<string, string | undefined> = process.env, from: string = fileURLToPath(import.meta.url)): string {
  const explicit = env.RENDERDROP_RENDERER_DIR?.trim();
  if (explicit) return resolve(explicit);
  let dir = dirname(from);
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'out', 'renderer');
    const parent = dirname(dir);
    if (parent === dir) return join(process.cwd(), 'out', 'renderer');
    dir = parent;
  }
}
