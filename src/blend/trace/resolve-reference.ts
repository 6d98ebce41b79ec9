import { basename, dirname, join, posix, win32 } from 'node:path';
import type { Dependency, DependencyStatus } from './dependency';
import { filesUnder, matchingFiles, type MayList, probePath, type FoundFile } from './disk-probe';
import { describeReference } from './describe-reference';
import { isGoneTemporaryCache, temporaryCacheNote } from './temporary-cache';
import type { PathReference } from './path-reference';
import { frameHoles, framePattern, storedBaseName, storedPathTarget, udimFileNames, type PathPlatform } from './stored-path';

/** Options of {@link resolveReference}. */
export interface ResolveOptions {
  platform: PathPlatform;
  /** Folder of the scene: cache folders at or above it are not packed. */
  sceneDir: string;
  /** Most files packed from one cache folder. */
  folderLimit?: number;
  /** Whether a folder may be listed (TraceOptions.mayList); absent: every folder may. */
  mayList?: MayList;
}

const DEFAULT_FOLDER_LIMIT = 100_000;

interface Outcome {
  status: DependencyStatus;
  resolved: string | null;
  files: FoundFile[];
  detail?: string;
  absent?: string[];
  outside?: string[];
}

/**
 * What is on disk for one path of the .blend at `holder`. A point cache's `blendcache_` folder that is
 * not there (never baked) and a Blender temporary cache folder that is gone are not needed.
 */
export async function resolveReference(ref: PathReference, holder: string, options: ResolveOptions): Promise<Dependency> {
  const outcome = await locate(ref, holder, options);
  const temporaryGone = isGoneTemporaryCache({ kind: ref.kind, stored: ref.stored, status: outcome.status });
  const required = ref.required && !(ref.shape === 'blendcache' && outcome.status !== 'found') && !temporaryGone;
  const base = {
    kind: ref.kind,
    owner: ref.owner,
    stored: ref.stored,
    holder,
    shape: ref.shape,
    ...(ref.subfolder !== undefined ? { subfolder: ref.subfolder } : {}),
    required,
    slot: ref.slot,
    resolved: outcome.resolved,
    files: outcome.files,
    size: outcome.files.reduce((sum, f) => sum + f.size, 0),
    status: outcome.status,
    ...(outcome.absent && outcome.absent.length > 0 ? { absent: outcome.absent } : {}),
    ...(outcome.outside && outcome.outside.length > 0 ? { outside: outcome.outside } : {}),
  };
  return { ...base, problem: temporaryGone ? temporaryCacheNote(base) : describeReference(base, outcome.detail) };
}

async function locate(ref: PathReference, holder: string, options: ResolveOptions): Promise<Outcome> {
  if (ref.packed) return { status: 'packed', resolved: null, files: [] };
  if (ref.shape === 'blendcache') return blendCache(holder, options);
  const target = storedPathTarget(ref.stored, dirname(holder), options.platform);
  if (target.kind === 'empty') return { status: 'empty', resolved: null, files: [] };
  if (target.kind === 'other-system') return { status: 'other-system', resolved: null, files: [] };
  let first: Outcome | null = null;
  for (const candidate of target.candidates) {
    const outcome = await locateAt(ref, ref.subfolder !== undefined ? join(candidate, ref.subfolder) : candidate, options);
    if (outcome.status === 'found') return outcome;
    first ??= outcome;
  }
  return first!;
}

async function locateAt(ref: PathReference, path: string, options: ResolveOptions): Promise<Outcome> {
  if (ref.shape === 'directory') return folder(path, options);
  if (ref.shape === 'udim') return udim(path, ref.tiles ?? []);
  const probe = await probePath(path);
  if (probe.status === 'file' && ref.shape === 'file') return { status: 'found', resolved: path, files: [probe.file] };
  const name = storedBaseName(ref.stored);
  const placeholder = name.includes('#') ? 'hash' : ref.shape === 'sequence' ? 'digits' : null;
  const pattern = placeholder ? framePattern(name, placeholder) : null;
  if (pattern && placeholder) {
    if (options.mayList && !(await options.mayList(dirname(path)))) return { status: 'outside', resolved: path, files: [] };
    const files = await matchingFiles(dirname(path), pattern);
    const absent = frameHoles(name, placeholder, files.map((f) => basename(f.path))).map((hole) => join(dirname(path), hole));
    if (files.length > 0) return { status: 'found', resolved: path, files, absent };
  }
  if (probe.status === 'file') return { status: 'found', resolved: path, files: [probe.file] };
  if (probe.status === 'directory') return { status: 'not-a-file', resolved: path, files: [], detail: 'folder' };
  if (probe.status === 'not-a-file') return { status: 'not-a-file', resolved: path, files: [] };
  if (probe.status === 'unreadable') return { status: 'unreadable', resolved: path, files: [], detail: probe.reason };
  return { status: 'missing', resolved: path, files: [] };
}

async function udim(path: string, tiles: readonly number[]): Promise<Outcome> {
  const dir = dirname(path);
  const files: FoundFile[] = [];
  const absent: string[] = [];
  let unreadable: string | undefined;
  for (const name of udimFileNames(basename(path), tiles)) {
    const probe = await probePath(join(dir, name));
    if (probe.status === 'file') files.push(probe.file);
    else if (probe.status === 'unreadable') unreadable ??= probe.reason;
    else if (probe.status === 'missing') absent.push(join(dir, name));
  }
  if (files.length > 0) return { status: 'found', resolved: path, files, absent };
  if (unreadable) return { status: 'unreadable', resolved: path, files, detail: unreadable };
  return { status: 'missing', resolved: path, files };
}

async function folder(path: string, options: ResolveOptions): Promise<Outcome> {
  const probe = await probePath(path);
  if (probe.status === 'file') return { status: 'found', resolved: path, files: [probe.file] };
  if (probe.status === 'unreadable') return { status: 'unreadable', resolved: path, files: [], detail: probe.reason };
  if (probe.status !== 'directory') return { status: 'missing', resolved: path, files: [] };
  if (contains(path, options.sceneDir, options.platform)) return { status: 'skipped', resolved: path, files: [] };
  if (options.mayList && !(await options.mayList(path))) return { status: 'outside', resolved: path, files: [] };
  const found = await filesUnder(path, options.folderLimit ?? DEFAULT_FOLDER_LIMIT, options.mayList);
  const outside = found.outside.length > 0 ? { outside: found.outside } : {};
  if (found.truncated) return { status: 'skipped', resolved: path, files: [], detail: 'too-many' };
  if (found.unreadable.length > 0) return { status: 'unreadable', resolved: path, files: found.files, detail: `${found.unreadable[0]} cannot be read`, ...outside };
  return { status: found.files.length > 0 ? 'found' : found.outside.length > 0 ? 'outside' : 'missing', resolved: path, files: found.files, ...outside };
}

async function blendCache(holder: string, options: ResolveOptions): Promise<Outcome> {
  const path = join(dirname(holder), `blendcache_${basename(holder).replace(/\.blend$/i, '')}`);
  return folder(path, options);
}

/** Whether folder `outer` is `inner` or one of its parents. */
function contains(outer: string, inner: string, platform: PathPlatform): boolean {
  const rel = (platform === 'win32' ? win32 : posix).relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !(platform === 'win32' ? win32 : posix).isAbsolute(rel));
}

