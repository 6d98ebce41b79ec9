import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Renderdrop's package.json as found on disk: the two fields read from it. */
interface PackageInfo {
  dir: string;
  version: string;
}

function readPackage(dir: string): { name?: unknown; version?: unknown } | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? parsed : null;
  } catch {
    return null;
  }
}

/** The nearest package.json above this module that is Renderdrop's. */
function findPackage(): PackageInfo {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const found = readPackage(dir);
    if (found?.name === 'renderdrop') return { dir, version: typeof found.version === 'string' ? found.version : '0.0.0' };
    const up = dirname(dir);
    if (up === dir) throw new Error('Renderdrop package.json not found above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
}

/** The version of this Renderdrop. */
export const VERSION: string = findPackage().version;
