import { dirname, resolve } from 'node:path';
import { projectProblem, ProjectRoots } from '../../core/packing';
import { UsageError } from '../cli-errors';
import type { CliContext } from '../context';

/** A scene's project folder, and where it came from. */
export interface ProjectChoice {
  project: string;
  /** `scene`: the scene's own folder; `given`: `--project` (now remembered); `remembered`: an earlier `--project`. */
  source: 'scene' | 'given' | 'remembered';
}

/**
 * The project of a .blend (absolute `scene`): `--project` when given, which must hold the scene and is
 * remembered for it in the settings folder; else the folder remembered for the scene; else its folder.
 */
export async function projectFor(ctx: CliContext, scene: string, given: string | undefined): Promise<ProjectChoice> {
  const roots = new ProjectRoots(ctx.settings().dir);
  if (given !== undefined) {
    const project = resolve(given);
    const problem = await projectProblem(scene, project);
    if (problem !== null) throw new UsageError(`--project ${problem}`);
    await roots.remember(scene, project);
    return { project, source: project === dirname(scene) ? 'scene' : 'given' };
  }
  const remembered = await roots.forScene(scene);
  return remembered === null ? { project: dirname(scene), source: 'scene' } : { project: remembered, source: 'remembered' };
}

/** One line naming a project other than the scene's folder, or null. */
export function projectLine(name: string, choice: ProjectChoice): string | null {
  if (choice.source === 'scene') return null;
  const how = choice.source === 'given' ? 'as --project says; remembered for this scene' : 'remembered for this scene; --project <dir> changes it';
  return `${name}: the project is ${choice.project} (${how}). Files below it travel without a question.`;
}
