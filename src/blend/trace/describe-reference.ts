import { basename } from 'node:path';
import type { Dependency } from './dependency';
import type { PathKind } from './path-reference';

/** How each kind of dependency is named for a person. */
export const KIND_LABELS: Record<PathKind, string> = {
  image: 'image',
  library: 'linked library',
  sound: 'sound',
  'movie-clip': 'movie clip',
  font: 'font',
  'cache-file': 'cache file',
  volume: 'volume',
  'sequencer-strip': 'sequencer strip',
  text: 'text',
  'mesh-cache': 'Mesh Cache modifier',
  'ocean-cache': 'ocean cache',
  'fluid-cache': 'fluid cache',
  'point-cache': 'physics cache',
  'shader-script': 'OSL script',
  'ies-light': 'IES light profile',
  'multires-displacement': 'multires displacement',
  'brush-icon': 'brush icon',
  'asset-source': 'asset origin',
  'geometry-nodes-bake': 'geometry nodes bake',
  'node-file': 'geometry nodes file',
};

/**
 * What is wrong with a dependency, in words for the artist (null when found, packed or empty):
 * which data-block in which .blend uses which path, and what is on this disk there.
 */
export function describeReference(dep: Omit<Dependency, 'problem'>, detail?: string): string | null {
  const who = `The ${KIND_LABELS[dep.kind]} "${dep.owner}" in ${basename(dep.holder)}`;
  const where = dep.resolved ?? dep.stored;
  switch (dep.status) {
    case 'found':
    case 'packed':
    case 'empty':
      return null;
    case 'missing':
      if (dep.shape === 'blendcache') return `${who} keeps its cache on disk, but ${where} holds nothing (not baked).`;
      return `${who} uses ${dep.stored}, which is not on this computer (looked for ${where}).`;
    case 'other-system':
      return `${who} uses ${dep.stored}, a Windows path from another computer that does not exist here. Relink the file in Blender, or make the path relative (File > External Data > Make Paths Relative) on the computer that has it.`;
    case 'not-a-file':
      return detail === 'folder' ? `${who} uses ${dep.stored}, which is a folder, not a file (${where}).` : `${who} uses ${dep.stored}, which is not a regular file (${where}).`;
    case 'unreadable':
      return `${who} uses ${dep.stored}, which cannot be read (${detail ?? 'access denied'}): ${where}.`;
    case 'outside':
      return `${who} uses the folder ${where}, which lies outside the project; it was not read, and nothing of it travels unless you allow it.`;
    case 'skipped':
      return detail === 'too-many'
        ? `${who} uses the folder ${where}, which holds too many files to pack; it is left out.`
        : `${who} uses the folder ${where}, which is the scene's own folder or one above it; it is left out. Give the cache a folder of its own.`;
  }
}
