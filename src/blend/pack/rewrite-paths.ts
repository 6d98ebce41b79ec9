import { dirname, posix } from 'node:path';
import { BlendError, lengthField } from '../reader';
import type { BundleLayout } from './bundle-layout';
import { type Dependency, endsWithSeparator, isBlendRelative, storedBaseName } from '../trace';

/** Bytes to put at `offset` of a decompressed .blend in place of `length` bytes there (base64). */
export interface BlendPatch {
  offset: number;
  length: number;
  data: string;
}

/** A path of a .blend that cannot be pointed into the bundle (the new path does not fit). */
export class PathRewriteError extends BlendError {}

/** How to write numbers into a .blend's block headers. */
export interface BlendLayoutInfo {
  littleEndian: boolean;
  blockHeaderSize: 20 | 24 | 32;
}

/**
 * Where a dependency's path must point inside the bundle, seen from the .blend at `blendEntry`, or null
 * when it has nothing there (missing, packed, empty, an implicit cache folder). A path whose files sit in a
 * subfolder of it (a geometry-nodes bake inside its modifier's folder) points at the folder around them.
 */
export function bundlePathOf(dep: Dependency, layout: BundleLayout): string | null {
  if (dep.status !== 'found' || dep.resolved === null || dep.shape === 'blendcache') return null;
  if (dep.slot?.type === 'folder' || dep.subfolder !== undefined) return layout.folderOf(dirname(dep.resolved));
  if (dep.shape === 'directory') return layout.folderOf(dep.resolved);
  if (dep.shape === 'file' && !storedBaseName(dep.stored).includes('#')) return layout.entryOf(dep.resolved);
  const folder = layout.folderOf(dirname(dep.resolved));
  return folder === '' ? storedBaseName(dep.stored) : `${folder}/${storedBaseName(dep.stored)}`;
}

/**
 * The patches that make a copy of a .blend at bundle entry `blendEntry` point every found dependency
 * at its place in the bundle. Paths that already point there are left alone; absolute paths, paths
 * leaving the bundle and paths with Windows separators are rewritten as `//` relative paths.
 */
export function rewritePatches(deps: readonly Dependency[], blendEntry: string, layout: BundleLayout, info: BlendLayoutInfo): BlendPatch[] {
  const from = posix.dirname(blendEntry);
  const patches = new Map<number, BlendPatch[]>();
  for (const dep of deps) {
    const target = bundlePathOf(dep, layout);
    const slot = dep.slot;
    if (target === null || slot === null) continue;
    if (slot.type === 'folder') {
      const storedFolder = dep.stored.slice(0, dep.stored.length - slot.file.length);
      if (pointsAt(storedFolder, from, target)) continue;
      patches.set(slot.offset, [fixed(slot.offset, slot.size, `${relativeFrom(from, target)}/`, dep)]);
      continue;
    }
    if (pointsAt(dep.stored, from, target)) continue;
    const wanted = relativeFrom(from, target) + (dep.shape === 'directory' && endsWithSeparator(dep.stored) ? '/' : '');
    if (slot.type === 'fixed') patches.set(slot.offset, [fixed(slot.offset, slot.size, wanted, dep)]);
    else patches.set(slot.dataOffset, resized(slot.headerOffset, slot.dataOffset, slot.size, wanted, info));
  }
  return [...patches.values()].flat().sort((a, b) => a.offset - b.offset);
}

/** Whether `stored`, read by Blender from a .blend in bundle folder `from`, already means `target`. */
function pointsAt(stored: string, from: string, target: string): boolean {
  if (!isBlendRelative(stored) || stored.includes('\\')) return false;
  const meant = posix.normalize(posix.join(from, stored.slice(2)));
  return stripSlash(meant) === stripSlash(posix.normalize(target === '' ? '.' : target));
}

const stripSlash = (path: string) => path.replace(/\/+$/, '') || '.';

function relativeFrom(from: string, target: string): string {
  return `//${posix.relative(from, target === '' ? '.' : target)}`;
}

function fixed(offset: number, size: number, value: string, dep: Dependency): BlendPatch {
  const bytes = Buffer.alloc(size);
  const written = Buffer.from(value, 'utf8');
  if (written.length >= size) {
    throw new PathRewriteError(`The path of the ${dep.kind} "${dep.owner}" in its bundle (${value}) is longer than Blender can store (${size - 1} bytes). Move ${dep.resolved ?? dep.stored} closer to the scene and pack again.`);
  }
  written.copy(bytes);
  return { offset, length: size, data: bytes.toString('base64') };
}

function resized(headerOffset: number, dataOffset: number, oldSize: number, value: string, info: BlendLayoutInfo): BlendPatch[] {
  const text = Buffer.from(value, 'utf8');
  const size = Math.max(4, (text.length + 1 + 3) & ~3);
  const data = Buffer.alloc(size);
  text.copy(data);
  const out: BlendPatch[] = [{ offset: dataOffset, length: oldSize, data: data.toString('base64') }];
  if (size !== oldSize) {
    const field = lengthField(info);
    const length = Buffer.alloc(field.size);
    if (field.size === 8 && info.littleEndian) length.writeBigInt64LE(BigInt(size));
    else if (field.size === 8) length.writeBigInt64BE(BigInt(size));
    else if (info.littleEndian) length.writeInt32LE(size);
    else length.writeInt32BE(size);
    out.unshift({ offset: headerOffset + field.offset, length: field.size, data: length.toString('base64') });
  }
  return out;
}

/** Bytes a copy gains (or loses) through its patches. */
export function patchedSize(size: number, patches: readonly BlendPatch[]): number {
  return patches.reduce((total, p) => total + Buffer.byteLength(p.data, 'base64') - p.length, size);
}
