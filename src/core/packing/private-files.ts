import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { type BundleEntry, type BundlePlan, leaveOut, type PlannedDependency } from '../../blend/pack';
import { KIND_LABELS } from '../../blend/trace';
import { allowedOutside, allowedSecret, isWithin, privateLook, privateWords, secretPlace, secretRoot } from './private-paths';

/**
 * Why a file is held at the packing boundary: it lies outside the project (`outside`), in a known
 * secret place or named like a key (`secret`, inside the project too), or it has other names on this
 * disk (`links`: hard links, one of which may be anywhere).
 */
export const HOLD_REASONS = ['outside', 'secret', 'links'] as const;

/**
 * A file (or a folder, not read) held at the packing boundary, and whether the artist let it travel.
 * The field names are those of the first version, which held private-looking files outside the project only.
 */
export const privateFileSchema = z.object({
  /** Where it is on this disk. */
  path: z.string(),
  /** Why it is held, in a few words. */
  why: z.string(),
  /** What uses it, in words ("image", "linked library"), and the name of that data-block. */
  kind: z.string(),
  owner: z.string(),
  /** True when the artist allowed it to travel (it is in the bundle); false: it was left out. */
  allowed: z.boolean(),
  /** Why it is held (absent in records of the first version: outside the project and private-looking). */
  held: z.enum(HOLD_REASONS).optional(),
  /** A folder outside the project (a cache folder, a sequence's folder) that was not read at all. */
  folder: z.boolean().optional(),
});
export type PrivateFile = z.infer<typeof privateFileSchema>;

/** A plan with the files held at the packing boundary left out unless allowed, and those files. */
export interface HeldPlan {
  plan: BundlePlan;
  privateFiles: PrivateFile[];
}

/** Where a scene's project ends and what the artist let through it. */
export interface PackBoundary {
  /** The project's folder (absolute): the scene's folder unless the artist chose one holding it. */
  project: string;
  /** Files, or folders holding them, the artist allowed to travel from outside the project (absolute). */
  allowOutside: readonly string[];
}

/**
 * The packing boundary. The project is the scene's folder, or the folder the artist chose around it
 * (`project`). These files are left out of the bundle, and listed, unless `allowOutside` (absolute
 * paths of files or of folders holding them) allows them:
 * - a file outside the project, whatever its name (by its path, or by where its symbolic links lead);
 * - a file in a known secret place or named like a key (secretPlace), even inside the project: an
 *   allowance must name that place or a path inside it, never a folder around it (`~`);
 * - a file with more than one hard link, even inside the project: only an allowance naming it lets it go.
 * Folders the tracer did not read because they lie outside the project (their dependency is `outside`)
 * are listed too. Reads only.
 */
export async function holdPrivateFiles(plan: BundlePlan, allowOutside: readonly string[], project: string = dirname(plan.scene)): Promise<HeldPlan> {
  const boundary = { project, realProject: await realOrSame(project), allowOutside };
  const privateFiles: PrivateFile[] = [];
  const held = new Set<string>();
  for (const entry of plan.entries) {
    if (entry.source === plan.scene) continue;
    const hold = await holdOf(entry.source, boundary);
    if (hold === null) continue;
    if (!hold.allowed) held.add(entry.source);
    privateFiles.push({ path: entry.source, ...hold, ...usedBy(plan, entry) });
  }
  privateFiles.push(...unreadFolders(plan.dependencies, privateFiles));
  privateFiles.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { plan: leaveOut(plan, held), privateFiles };
}

/**
 * Whether a folder may be listed while tracing (TraceOptions.mayList): inside the project and in no
 * secret place, by its path and where its links lead, or allowed as holdPrivateFiles allows a file.
 */
export function folderBoundary(boundary: PackBoundary): (folder: string) => Promise<boolean> {
  let realProject: Promise<string> | null = null;
  return async (folder) => {
    realProject ??= realOrSame(boundary.project);
    const hold = await holdOf(join(folder, '_'), { ...boundary, realProject: await realProject }, 'folder');
    return hold === null || hold.allowed;
  };
}

type Hold = Pick<PrivateFile, 'why' | 'allowed'> & { held: NonNullable<PrivateFile['held']> };

/** Why a file (or, for a folder, a name inside it) is held at the boundary, and whether it is allowed; null: it may travel. */
async function holdOf(path: string, boundary: PackBoundary & { realProject: string }, what: 'file' | 'folder' = 'file'): Promise<Hold | null> {
  const { project, realProject, allowOutside } = boundary;
  const shown = (p: string) => (what === 'folder' ? dirname(p) : p);
  const real = what === 'folder' ? join(await realOrSame(dirname(path)), '_') : await realOrSame(path);
  const outside = !isWithin(path, project) || !isWithin(real, realProject);
  const where = outside ? (isWithin(path, project) ? `a link to ${shown(real)}, outside the project` : 'outside the project') : null;
  for (const candidate of new Set([path, real])) {
    const look = secretPlace(candidate);
    if (!look) continue;
    const place = secretRoot(candidate, look);
    const allowed = allowedSecret(shown(path), place, allowOutside) || allowedSecret(shown(real), place, allowOutside);
    return { held: 'secret', why: [where, privateWords(look)].filter(Boolean).join(', '), allowed };
  }
  if (what === 'file') {
    const links = (await stat(path).catch(() => null))?.nlink ?? 1;
    if (links > 1) {
      const allowed = allowOutside.includes(path) || allowOutside.includes(real);
      return { held: 'links', why: `${where ? `${where}; ` : ''}it has ${links} names on this disk (hard links), and another may lie anywhere`, allowed };
    }
  }
  if (!outside) return null;
  const loose = privateLook(path) ?? privateLook(real);
  const allowed = allowedOutside(shown(path), allowOutside) || allowedOutside(shown(real), allowOutside);
  return { held: 'outside', why: loose ? `${where}, ${privateWords(loose)}` : where!, allowed };
}

/** The folders outside the project the tracer did not read, once each, unless a held file names them already. */
function unreadFolders(dependencies: readonly PlannedDependency[], files: readonly PrivateFile[]): PrivateFile[] {
  const out = new Map<string, PrivateFile>();
  for (const dep of dependencies) {
    const folders = [...(dep.status === 'outside' && dep.resolved ? [dep.shape === 'directory' || dep.shape === 'blendcache' || dep.subfolder !== undefined ? dep.resolved : dirname(dep.resolved)] : []), ...(dep.outside ?? [])];
    for (const folder of folders) {
      if (out.has(folder) || files.some((f) => f.path === folder)) continue;
      out.set(folder, { path: folder, why: 'a folder outside the project; it was not read', kind: KIND_LABELS[dep.kind], owner: dep.owner, allowed: false, held: 'outside', folder: true });
    }
  }
  return [...out.values()];
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
