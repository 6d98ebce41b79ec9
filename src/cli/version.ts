import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const packageSchema = z.looseObject({ name: z.string().optional(), version: z.string().optional() });

/** The package root: the nearest folder above this module holding Renderdrop's package.json. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      if (packageSchema.safeParse(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).data?.name === 'renderdrop') return dir;
    } catch {
      // not here; keep walking up
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('Renderdrop package.json not found above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
}

/** The version of this Renderdrop. */
export const VERSION: string = packageSchema.parse(JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8'))).version ?? '0.0.0';
