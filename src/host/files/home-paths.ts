import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { NotFoundError } from '../../core/errors';
import { isInside } from './folder-listing';

/** What a path names, for the refusal's words. */
export type HomePathUse = 'scene' | 'download-folder';

const REFUSALS: Record<HomePathUse, string> = {
  scene: 'Only scenes in your home folder can be opened here.',
  'download-folder': 'Choose a download folder inside your home folder.',
};

/**
 * The absolute path `path` names (a relative one from home, `..` resolved), refused in one line unless
 * it is inside the artist's home folder once every symlink along it is followed, as the file browser
 * resolves folders. The path need not exist yet (a download folder is made on the first download); a
 * link that cannot be followed is refused.
 */
export async function pathInHome(home: string, path: string, use: HomePathUse): Promise<string> {
  const root = await realpath(home).catch(() => {
    throw new NotFoundError('Your home folder cannot be read.', { code: 'no-home' });
  });
  const asked = resolve(root, path);
  const real = await realPathOf(asked);
  if (real === null || !isInside(root, real)) throw new NotFoundError(REFUSALS[use], { code: 'outside-home' });
  return asked;
}

/**
 * Where `path` really leads: the real path of its deepest part that exists, with the parts that do not
 * exist yet after it; null when a part exists but cannot be followed (a dangling link, a loop).
 */
async function realPathOf(path: string): Promise<string | null> {
  const missing: string[] = [];
  let at = path;
  for (;;) {
    try {
      return join(await realpath(at), ...missing);
    } catch {
      if (await lstat(at).then(() => true, () => false)) return null;
      const parent = dirname(at);
      if (parent === at) return null;
      missing.unshift(basename(at));
      at = parent;
    }
  }
}
