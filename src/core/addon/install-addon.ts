import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, readFile, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ADDON_MODULE, readAddonSource, type AddonSource } from './addon-source';
import type { BlenderInstall } from './find-blenders';
import { fileHash, type InstallManifest, MANIFEST_NAME, readManifest } from './install-manifest';

/** Where the add-on stands in one Blender's user add-on folder. */
export interface AddonStatus {
  /** The add-on's folder in that Blender's user add-ons. */
  folder: string;
  /**
   * `not-installed`; `installed` (this version); `outdated` (another version Renderdrop installed);
   * `modified` (installed by Renderdrop, files changed since); `foreign` (an add-on of that name
   * Renderdrop did not install).
   */
  state: 'not-installed' | 'installed' | 'outdated' | 'modified' | 'foreign';
  /** The version installed there, when Renderdrop installed it. */
  installedVersion: string | null;
  /** The version Renderdrop ships. */
  version: string;
}

/** Options of {@link installAddon}. */
export interface InstallOptions {
  /** How the add-on should run the `renderdrop` command (program and first arguments); null: find it. */
  cli?: readonly string[] | null;
  /** Environment variables that command needs (e.g. `ELECTRON_RUN_AS_NODE`). */
  cliEnv?: Readonly<Record<string, string>>;
  /** The add-on to install (default: the one Renderdrop ships). */
  source?: AddonSource;
}

/** Thrown when the add-on cannot be installed; the message says why, for a person. */
export class AddonInstallError extends Error {
  override readonly name = 'AddonInstallError';
}

async function isFolder(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isDirectory(), () => false);
}

/** The add-on's state for `blender`: installed or not, by Renderdrop, which version, changed or not. */
export async function addonStatus(blender: BlenderInstall, source: AddonSource = readAddonSource()): Promise<AddonStatus> {
  const folder = join(blender.addonsDir, ADDON_MODULE);
  const base = { folder, version: source.version };
  if (!(await isFolder(folder))) return { ...base, state: 'not-installed', installedVersion: null };
  const manifest = await readManifest(folder);
  if (!manifest) {
    const entries = await readdir(folder).catch(() => [] as string[]);
    return { ...base, state: entries.includes('__init__.py') ? 'foreign' : 'not-installed', installedVersion: null };
  }
  const hashes = await Promise.all(manifest.files.map((f) => fileHash(join(folder, f.path)).catch(() => null)));
  const modified = manifest.files.some((f, i) => hashes[i] !== f.sha256);
  const state = modified ? 'modified' : manifest.version === source.version ? 'installed' : 'outdated';
  return { ...base, state, installedVersion: manifest.version };
}

/**
 * Copies the add-on into `blender`'s user add-on folder and writes the manifest naming each file.
 * Installing again replaces Renderdrop's files (and drops those the new version no longer has); a
 * folder of that name Renderdrop did not install is left alone and refused.
 */
export async function installAddon(blender: BlenderInstall, options: InstallOptions = {}): Promise<AddonStatus> {
  if (!blender.supported) throw new AddonInstallError(`The Renderdrop add-on needs Blender 3.3 or newer; ${blender.path} is Blender ${blender.version}.`);
  const source = options.source ?? readAddonSource();
  const before = await addonStatus(blender, source);
  if (before.state === 'foreign') {
    throw new AddonInstallError(`${before.folder} holds an add-on Renderdrop did not install; remove it in Blender's Preferences > Add-ons first.`);
  }
  const folder = before.folder;
  await refuseLinks(folder, [MANIFEST_NAME, ...source.files], 'install');
  const previous = await readManifest(folder);
  const gone = ownFiles(previous).filter((old) => !source.files.includes(old.path));
  await refuseLinks(folder, gone.map((old) => old.path), 'install');
  for (const old of gone) await removeIfUnchanged(join(folder, old.path), old.sha256);
  await makeFolder(blender.addonsDir, folder);
  const files: { path: string; sha256: string }[] = [];
  for (const file of source.files) {
    const parts = file.split('/');
    for (let depth = 1; depth < parts.length; depth++) await makeFolder(folder, join(folder, ...parts.slice(0, depth)));
    const target = join(folder, ...parts);
    await writeNoFollow(target, await readFile(join(source.dir, ...parts)));
    files.push({ path: file, sha256: await fileHash(target) });
  }
  const manifest = { product: 'renderdrop', version: source.version, installedAt: new Date().toISOString(), files, cli: options.cli ? [...options.cli] : null, ...(options.cli && options.cliEnv ? { cliEnv: { ...options.cliEnv } } : {}) };
  await writeNoFollow(join(folder, MANIFEST_NAME), Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
  return addonStatus(blender, source);
}

/**
 * Refuses, naming it, a symbolic link at the add-on folder or anywhere on the way from it to each of
 * `inside` (paths below it, `/`-separated): the installer and uninstaller write and delete only real
 * files and folders of the add-on folder, never what a link planted there leads to. Called before
 * anything changes.
 */
async function refuseLinks(folder: string, inside: readonly string[], doing: 'install' | 'remove'): Promise<void> {
  const paths = new Set<string>([folder]);
  for (const rel of inside) {
    const parts = rel.split('/');
    for (let depth = 1; depth <= parts.length; depth++) paths.add(join(folder, ...parts.slice(0, depth)));
  }
  for (const path of paths) {
    if ((await lstat(path).catch(() => null))?.isSymbolicLink()) throw linkRefused(path, doing);
  }
}

function linkRefused(path: string, doing: 'install' | 'remove'): AddonInstallError {
  return new AddonInstallError(
    `${path} is a symbolic link; Renderdrop does not ${doing === 'install' ? 'install the add-on' : 'remove add-on files'} through a link, which could change files elsewhere. Nothing was changed; remove the link, then try again.`,
  );
}

/** Creates `folder` (and what is missing between it and `base`) without following a link there. */
async function makeFolder(base: string, folder: string): Promise<void> {
  if (folder !== base && !folder.startsWith(base)) throw new Error(`${folder} is not inside ${base}.`);
  await mkdir(base, { recursive: true });
  const rest = folder.slice(base.length).split(/[\\/]/).filter(Boolean);
  let path = base;
  for (const part of rest) {
    path = join(path, part);
    const info = await lstat(path).catch(() => null);
    if (info?.isSymbolicLink()) throw linkRefused(path, 'install');
    if (!info) await mkdir(path).catch((err: NodeJS.ErrnoException) => (err.code === 'EEXIST' ? undefined : Promise.reject(err)));
  }
}

/** Writes a file, refusing (ELOOP) to write through a symbolic link at `target`. */
async function writeNoFollow(target: string, data: Buffer): Promise<void> {
  const handle = await open(target, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0), 0o644).catch((err: NodeJS.ErrnoException) => {
    throw err.code === 'ELOOP' ? linkRefused(target, 'install') : err;
  });
  try {
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
}

/**
 * Removes what Renderdrop installed for `blender`: the files its manifest names (unless changed since),
 * their compiled caches, the manifest, and the folders left empty. Anything else stays.
 */
export async function uninstallAddon(blender: BlenderInstall, source: AddonSource = readAddonSource()): Promise<AddonStatus> {
  const folder = join(blender.addonsDir, ADDON_MODULE);
  const manifest = await refuseAddonLinks(blender);
  if (!manifest) return addonStatus(blender, source);
  const removals = await uninstallPlan(folder, ownFiles(manifest).map((file) => file.path));
  const dirs = new Set<string>([folder]);
  for (const file of ownFiles(manifest)) {
    const path = join(folder, ...file.path.split('/'));
    await removeIfUnchanged(path, file.sha256);
    dirs.add(join(dirname(path), '__pycache__'));
    for (let dir = dirname(path); dir.startsWith(folder); dir = dirname(dir)) dirs.add(dir);
  }
  for (const removal of removals) if (removal.cache) await rm(join(folder, ...removal.rel.split('/')), { force: true });
  await rm(join(folder, MANIFEST_NAME), { force: true });
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) await rmdir(dir).catch(() => undefined);
  return addonStatus(blender, source);
}

/**
 * Refuses (AddonInstallError naming it) a symbolic link anywhere in what uninstalling would delete
 * for `blender`: run it before turning the add-on off, so a refusal changes nothing. Resolves with the
 * installation's manifest (null: nothing Renderdrop installed is there).
 */
export async function refuseAddonLinks(blender: BlenderInstall): Promise<InstallManifest | null> {
  const folder = join(blender.addonsDir, ADDON_MODULE);
  await refuseLinks(folder, [MANIFEST_NAME], 'remove');
  const manifest = await readManifest(folder);
  if (!manifest) return null;
  const removals = await uninstallPlan(folder, ownFiles(manifest).map((file) => file.path));
  await refuseLinks(folder, removals.map((r) => r.rel), 'remove');
  return manifest;
}

/** The files a manifest names that lie below the add-on folder (no `..`, no absolute path): the only ones ever deleted. */
function ownFiles(manifest: InstallManifest | null): InstallManifest['files'] {
  return (manifest?.files ?? []).filter((file) => file.path !== '' && !file.path.startsWith('/') && !/^[A-Za-z]:/.test(file.path) && !file.path.split(/[\\/]/).some((part) => part === '..' || part === '.' || part === ''));
}

/**
 * What uninstalling touches below the add-on folder (`/`-separated): each installed file, and the
 * compiled caches of each in its `__pycache__` (listed only when that folder is no link).
 */
async function uninstallPlan(folder: string, files: readonly string[]): Promise<{ rel: string; cache: boolean }[]> {
  const plan: { rel: string; cache: boolean }[] = [];
  for (const file of files) {
    plan.push({ rel: file, cache: false });
    const parts = file.split('/');
    const cacheRel = [...parts.slice(0, -1), '__pycache__'].join('/');
    await refuseLinks(folder, [cacheRel], 'remove');
    const stem = parts.at(-1)!.replace(/\.py$/, '.');
    for (const name of await readdir(join(folder, ...cacheRel.split('/'))).catch(() => [] as string[])) {
      if (name.startsWith(stem) && name.endsWith('.pyc')) plan.push({ rel: `${cacheRel}/${name}`, cache: true });
    }
  }
  return plan;
}

async function removeIfUnchanged(path: string, sha256: string): Promise<void> {
  if ((await fileHash(path).catch(() => null)) === sha256) await rm(path, { force: true });
}
