import { realpath } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { z } from 'zod';
import { type BundleEntry, type BundlePlan, leaveOut } from '../../blend/pack';
import { KIND_LABELS } from '../../blend/trace';
import { allowedOutside, privateOutsideProject, privateWords } from './private-paths';

/** A file outside the scene's project that looks private, and whether the artist let it travel. */
export const privateFileSchema = z.object({
  /** Where it is on this disk. */
  path: z.string(),
  /** Why it looks private, in a few words. */
  why: z.string(),
  /** What uses it, in words ("image", "linked library"), and the name of that data-block. */
  kind: z.string(),
  owner: z.string(),
  /** True when the artist allowed it to travel (it is in the bundle); false: it was left out. */
  allowed: z.boolean(),
});
export type PrivateFile = z.infer<typeof privateFileSchema>;

/** A plan with its private files outside the project left out unless allowed, and those files. */
export interface HeldPlan {
  plan: BundlePlan;
  privateFiles: PrivateFile[];
}

/**
 * Keeps files that look private and lie outside the scene's project (see privateOutsideProject; the
 * project is the scene's folder) out of the bundle unless `allowOutside` (absolute paths of files or
 * of folders holding them) allows them. Each file is judged by its path and by the path its symbolic
 * links lead to, so a link inside the project cannot carry a key out. Reads only.
 */
export async function holdPrivateFiles(plan: BundlePlan, allowOutside: readonly string[]): Promise<HeldPlan> {
  const project = dirname(plan.scene);
  const realProject = await realOrSame(project);
  const privateFiles: PrivateFile[] = [];
  const held = new Set<string>();
  for (const entry of plan.entries) {
    if (entry.source === plan.scene) continue;
    const real = await realOrSame(entry.source);
    const look = privateOutsideProject(entry.source, project) ?? (real !== entry.source || realProject !== project ? privateOutsideProject(real, realProject) : null);
    if (look === null) continue;
    const allowed = allowedOutside(entry.source, allowOutside) || allowedOutside(real, allowOutside);
    if (!allowed) held.add(entry.source);
    privateFiles.push({ path: entry.source, why: privateWords(look), ...usedBy(plan, entry), allowed });
  }
  privateFiles.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { plan: leaveOut(plan, held), privateFiles };
}

/** The private files of a list that were left out (not allowed to travel). */
export function leftOutFiles(files: readonly PrivateFile[] | undefined): PrivateFile[] {
  return (files ?? []).filter((file) => !file.allowed);
}

/** What uses a bundle entry: the first dependency naming its file, else the library it is. */
function usedBy(plan: BundlePlan, entry: BundleEntry): { kind: string; owner: string } {
  const dep = plan.dependencies.find((d) => d.files.some((file) => file.path === entry.source));
  if (dep) return { kind: KIND_LABELS[dep.kind], owner: dep.owner };
  return { kind: KIND_LABELS.library, owner: basename(entry.source) };
}

async function realOrSame(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}
