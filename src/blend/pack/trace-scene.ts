import { createHash } from 'node:crypto';
import { basename, posix, relative, sep } from 'node:path';
import { BundleLayout } from './bundle-layout';
import { BlendError } from '../reader';
import type { BundleEntry, BundlePlan, PlannedBlend, PlannedDependency } from './bundle-plan';
import { type Dependency, isMissing, traceBlends, type TracedBlend, type TraceOptions } from '../trace';
import { bundlePathOf, patchedSize, rewritePatches } from './rewrite-paths';

/** Two different files would get the same name in the bundle. */
export class BundleNameClashError extends BlendError {}

/**
 * Trace a scene and plan its bundle: every .blend it needs (following libraries), every dependency
 * with what is on disk for it, where each file goes in the bundle and which paths of each .blend copy
 * are rewritten to point there. Reads only; throws a BlendFileError when the scene itself cannot be read.
 */
export async function traceScene(scenePath: string, options: TraceOptions = {}): Promise<BundlePlan> {
  const trace = await traceBlends(scenePath, options);
  const platform = options.platform ?? (process.platform === 'win32' ? 'win32' : 'posix');
  const allDeps = trace.blends.flatMap((b) => b.dependencies);
  const insidePaths = [...trace.blends.map((b) => b.path), ...allDeps.flatMap((d) => d.files.map((f) => f.path))];
  const layout = new BundleLayout(trace.scene, insidePaths, platform);

  const blends: PlannedBlend[] = trace.blends.map((blend) => planBlend(blend, layout));
  const entries = new EntryList();
  blends.forEach((blend, index) => {
    const traced = trace.blends[index]!;
    entries.add({ name: blend.entry, source: blend.path, size: blend.size, mtimeMs: traced.mtimeMs, blend: blend.error === null ? index : null });
  });
  for (const blend of trace.blends) {
    const holderEntry = layout.entryOf(blend.path);
    for (const dep of blend.dependencies) {
      if (dep.status !== 'found' || dep.kind === 'library') continue;
      for (const file of dep.files) {
        const name = dep.shape === 'blendcache' ? besideHolder(holderEntry, dep, file.path) : layout.entryOf(file.path);
        entries.add({ name, source: file.path, size: file.size, mtimeMs: file.mtimeMs, blend: null });
      }
    }
  }
  const ordered = entries.ordered(layout.sceneEntry);
  const dependencies = trace.blends.flatMap((blend) => blend.dependencies.map((dep) => planned(dep, layout)));
  const totalBytes = ordered.reduce((sum, e) => sum + e.size, 0);
  return {
    scene: trace.scene,
    sceneEntry: layout.sceneEntry,
    blends,
    dependencies,
    missing: dependencies.filter(isMissing),
    notes: trace.notes,
    entries: ordered,
    totalBytes,
    fingerprint: fingerprint(ordered, blends),
  };
}

function planBlend(blend: TracedBlend, layout: BundleLayout): PlannedBlend {
  const entry = layout.entryOf(blend.path);
  const patches = blend.error === null ? rewritePatches(blend.dependencies, entry, layout, blend) : [];
  return {
    path: blend.path,
    entry,
    linkedFrom: blend.linkedFrom,
    compression: blend.compression,
    version: blend.version,
    sourceSize: blend.size,
    size: patchedSize(blend.size, patches),
    patches,
    error: blend.error,
  };
}

function planned(dep: Dependency, layout: BundleLayout): PlannedDependency {
  const { slot: _slot, ...rest } = dep;
  const holderEntry = layout.entryOf(dep.holder);
  const bundlePath = dep.shape === 'blendcache' && dep.status === 'found' && dep.resolved ? besideHolder(holderEntry, dep, dep.resolved) : bundlePathOf(dep, layout);
  return { ...rest, bundlePath };
}

/** The entry of a file of a `blendcache_<name>` folder: beside the holder's entry, wherever that went. */
function besideHolder(holderEntry: string, dep: Dependency, path: string): string {
  const folder = dep.resolved!;
  const inner = relative(folder, path).split(sep).filter(Boolean);
  return posix.join(posix.dirname(holderEntry), basename(folder), ...inner);
}

class EntryList {
  private readonly byName = new Map<string, BundleEntry>();

  add(entry: BundleEntry): void {
    const existing = this.byName.get(entry.name);
    if (existing?.source === entry.source) return;
    if (existing) {
      throw new BundleNameClashError(`${existing.source} and ${entry.source} would both be "${entry.name}" in the bundle. Rename one of them and pack again.`);
    }
    this.byName.set(entry.name, entry);
  }

  /** The scene first, then every other entry by name. */
  ordered(sceneEntry: string): BundleEntry[] {
    const rest = [...this.byName.values()].filter((e) => e.name !== sceneEntry).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return [this.byName.get(sceneEntry)!, ...rest];
  }
}

function fingerprint(entries: readonly BundleEntry[], blends: readonly PlannedBlend[]): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(entries.map((e) => [e.name, e.source, e.size, e.mtimeMs, e.blend])));
  hash.update(JSON.stringify(blends.map((b) => b.patches)));
  return hash.digest('hex');
}

