import { copyFile, mkdir, readdir, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ADDON_MODULE, readAddonSource, type AddonSource } from './addon-source';
import type { BlenderInstall } from './find-blenders';
import { fileHash, MANIFEST_NAME, readManifest } from './install-manifest';

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
  const previous = await readManifest(folder);
  for (const old of previous?.files ?? []) {
    if (!source.files.includes(old.path)) await removeIfUnchanged(join(folder, old.path), old.sha256);
  }
  const files: { path: string; sha256: string }[] = [];
  for (const file of source.files) {
    const target = join(folder, ...file.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await copyFile(join(source.dir, ...file.split('/')), target);
    files.push({ path: file, sha256: await fileHash(target) });
  }
  const manifest = { product: 'renderdrop', version: source.version, installedAt: new Date().toISOString(), files, cli: options.cli ? [...options.cli] : null };
  await writeFile(join(folder, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`);
  return addonStatus(blender, source);
}

/**
 * Removes what Renderdrop installed for `blender`: the files its manifest names (unless changed since),
 * their compiled caches, the manifest, and the folders left empty. Anything else stays.
 */
export async function uninstallAddon(blender: BlenderInstall, source: AddonSource = readAddonSource()): Promise<AddonStatus> {
  const folder = join(blender.addonsDir, ADDON_MODULE);
  const manifest = await readManifest(folder);
  if (!manifest) return addonStatus(blender, source);
  const dirs = new Set<string>([folder]);
  for (const file of manifest.files) {
    const path = join(folder, ...file.path.split('/'));
    await removeIfUnchanged(path, file.sha256);
    const cache = join(dirname(path), '__pycache__');
    const stem = file.path.split('/').pop()!.replace(/\.py$/, '.');
    for (const name of await readdir(cache).catch(() => [] as string[])) if (name.startsWith(stem) && name.endsWith('.pyc')) await rm(join(cache, name), { force: true });
    dirs.add(cache);
    for (let dir = dirname(path); dir.startsWith(folder); dir = dirname(dir)) dirs.add(dir);
  }
  await rm(join(folder, MANIFEST_NAME), { force: true });
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) await rmdir(dir).catch(() => undefined);
  return addonStatus(blender, source);
}

async function removeIfUnchanged(path: string, sha256: string): Promise<void> {
  if ((await fileHash(path).catch(() => null)) === sha256) await rm(path, { force: true });
}
