import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, parse, resolve } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../util';
import type { PrivateFile } from './private-files';
import { isWithin, secretPlace } from './private-paths';

/** The file in the settings folder that remembers each scene's project folder. */
export const PROJECT_ROOTS_FILE = 'project-roots.json';

const rootsSchema = z.record(z.string(), z.string());

/**
 * Why `project` cannot be the project of `scene` (both absolute): it must be a folder holding the
 * scene, at any depth. Null when it can.
 */
export async function projectProblem(scene: string, project: string): Promise<string | null> {
  if (!isWithin(scene, project)) return `${project} does not hold ${scene}: the project is a folder with the scene somewhere below it (the show's folder).`;
  const info = await stat(project).catch(() => null);
  return info?.isDirectory() ? null : `${project} is not a folder on this computer.`;
}

/**
 * A folder that could be the project of a scene whose project is `project`: the nearest one holding it
 * and every held file or folder outside it (held for being outside, not for being secret or
 * hard-linked). Null when nothing outside is held, or when that folder would be the disk's root, the
 * home folder (or above it) or a secret place: a scene naming `~/Documents` makes no project of `~`.
 */
export function suggestProject(project: string, held: readonly PrivateFile[], home: string): string | null {
  const outside = held.filter((file) => !file.allowed && file.held === 'outside');
  if (outside.length === 0) return null;
  let common = project;
  for (const file of outside) {
    const folder = file.folder ? file.path : dirname(file.path);
    while (!isWithin(folder, common) && dirname(common) !== common) common = dirname(common);
  }
  if (common === parse(common).root || isWithin(home, common) || secretPlace(join(common, '_')) !== null) return null;
  return common;
}

/**
 * The project folder the artist chose for each scene (`--project`, the app's review), kept in the
 * settings folder so that a studio layout (a shot below the show, libraries in the show's shared
 * asset folder) is one decision per scene, not a question at every submission. A remembered folder
 * counts only while it is a folder that still holds the scene.
 */
export class ProjectRoots {
  readonly path: string;

  /** `configDir`: the settings folder (the journal's `dataDir`). */
  constructor(configDir: string) {
    this.path = join(configDir, PROJECT_ROOTS_FILE);
  }

  /** The project remembered for a scene (absolute path), or null: its own folder. */
  async forScene(scene: string): Promise<string | null> {
    const root = (await this.#read())[resolve(scene)];
    if (root === undefined) return null;
    return (await projectProblem(resolve(scene), root)) === null ? root : null;
  }

  /** Remembers the project of a scene; the scene's own folder forgets it. */
  async remember(scene: string, project: string): Promise<void> {
    const all = await this.#read();
    const key = resolve(scene);
    if (resolve(project) === dirname(key)) delete all[key];
    else all[key] = resolve(project);
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.path, `${JSON.stringify(all, null, 2)}\n`);
  }

  async #read(): Promise<Record<string, string>> {
    const text = await readFile(this.path, 'utf8').catch(() => null);
    if (text === null) return {};
    try {
      const parsed = rootsSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  }
}
