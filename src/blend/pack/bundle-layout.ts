import { posix, win32 } from 'node:path';
import type { PathPlatform } from '../trace';

/**
 * Where files of the artist's disk go inside a bundle: the scene at the top; files in the scene's
 * folder keep their place below it, except other .blend files at the top, which move to a libraries
 * folder (a bundle holds one .blend at its top); files elsewhere go under an external folder that
 * mirrors their absolute path (`/home/ana/tex/a.png` -> `_external/home/ana/tex/a.png`,
 * `C:\tex\a.png` -> `_external/C/tex/a.png`, `\\server\share\a.png` -> `_external/UNC/server/share/a.png`).
 * Folders map as a whole, so numbered sequences and tiles keep their names.
 */
export class BundleLayout {
  readonly sceneEntry: string;
  readonly externalFolder: string;
  readonly librariesFolder: string;
  private readonly api: typeof posix;
  private readonly sceneDir: string;

  /** `insidePaths`: every file inside the scene's folder that goes into the bundle (to avoid their names). */
  constructor(
    private readonly scene: string,
    insidePaths: readonly string[],
    platform: PathPlatform,
  ) {
    this.api = platform === 'win32' ? win32 : posix;
    this.sceneDir = this.api.dirname(scene);
    this.sceneEntry = this.api.basename(scene);
    const taken = new Set<string>();
    for (const path of insidePaths) {
      const rel = this.inside(path);
      if (rel !== null) taken.add(rel.split('/')[0]!.toLowerCase());
    }
    this.externalFolder = freeName('_external', taken);
    this.librariesFolder = freeName('_libraries', taken);
  }

  /** The bundle entry of a file. */
  entryOf(path: string): string {
    if (this.api.resolve(path) === this.api.resolve(this.scene)) return this.sceneEntry;
    const rel = this.inside(path);
    if (rel === null) return `${this.externalFolder}/${rootedParts(path, this.api)}`;
    if (!rel.includes('/') && /\.blend$/i.test(rel)) return `${this.librariesFolder}/${rel}`;
    return rel;
  }

  /** The bundle folder of a folder on disk ('' for the scene's folder). */
  folderOf(dir: string): string {
    const rel = this.inside(dir);
    if (rel === null) return `${this.externalFolder}/${rootedParts(dir, this.api)}`;
    return rel;
  }

  /** The path below the scene's folder with `/` separators, or null when outside it. */
  private inside(path: string): string | null {
    const rel = this.api.relative(this.sceneDir, path);
    if (rel.startsWith('..') || this.api.isAbsolute(rel)) return null;
    return rel.split(this.api.sep).join('/');
  }
}

function freeName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** An absolute path as relative parts: drive letter or `UNC` first on Windows. */
function rootedParts(path: string, api: typeof posix): string {
  const normal = api.normalize(path);
  if (api === win32) {
    const unc = /^\\\\([^\\]+)\\([^\\]+)\\?(.*)$/.exec(normal);
    if (unc) return ['UNC', unc[1], unc[2], ...unc[3]!.split('\\')].filter(Boolean).join('/');
    const drive = /^([A-Za-z]):\\?(.*)$/.exec(normal);
    if (drive) return [drive[1]!.toUpperCase(), ...drive[2]!.split('\\')].filter(Boolean).join('/');
  }
  return normal.split(api.sep).filter(Boolean).join('/');
}
