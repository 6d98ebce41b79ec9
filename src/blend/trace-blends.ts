import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { BlendFile } from './blend-file';
import { BlendFileError } from './blend-file-error';
import type { BlendCompression } from './byte-source';
import { collectReferences } from './collect-references';
import type { Dependency } from './dependency';
import { mapLimit } from './map-limit';
import { resolveReference } from './resolve-reference';
import type { PathPlatform } from './stored-path';

/** Files looked at on disk at the same time while resolving a .blend's paths. */
const PROBES_AT_ONCE = 16;

/** One .blend of a scene (the scene or a library), its paths and what is on disk for them. */
export interface TracedBlend {
  path: string;
  /** The .blend that links it (null for the scene). */
  linkedFrom: string | null;
  compression: BlendCompression | null;
  /** Blender version that saved it (304 for 3.4), null when it could not be read. */
  version: number | null;
  /** Bytes Blender reads (decompressed); what its copy in a bundle holds before rewriting. */
  size: number;
  /** Last modification of the file, to tell whether it changed since it was traced. */
  mtimeMs: number;
  littleEndian: boolean;
  blockHeaderSize: 20 | 24 | 32;
  dependencies: Dependency[];
  /** Why this library cannot be read; it then travels as it is, unchanged. */
  error: string | null;
}

/** The scene and every library it needs, found by following libraries recursively. */
export interface TraceResult {
  scene: string;
  blends: TracedBlend[];
  /** Things worth knowing that lose nothing, e.g. libraries that link each other. */
  notes: string[];
}

/** Options of {@link traceBlends}. */
export interface TraceOptions {
  platform?: PathPlatform;
  signal?: AbortSignal;
  /** Folder for temporary decompressed copies of gzip files. */
  tempDir?: string;
}

/**
 * Read the scene and follow its libraries (each library's paths relative to that library). A library
 * reached again through a loop is read once and the loop reported. The scene must be readable (a
 * BlendFileError otherwise); a library that cannot be read is recorded with its error.
 */
export async function traceBlends(scenePath: string, options: TraceOptions = {}): Promise<TraceResult> {
  const scene = resolve(scenePath);
  const platform = options.platform ?? (process.platform === 'win32' ? 'win32' : 'posix');
  const blends: TracedBlend[] = [];
  const notes: string[] = [];
  const visited = new Set<string>();
  const stack: { key: string; path: string }[] = [];

  const visit = async (path: string, linkedFrom: string | null): Promise<void> => {
    options.signal?.throwIfAborted();
    const key = await realpath(path).catch(() => path);
    const onStack = stack.findIndex((entry) => entry.key === key);
    if (onStack >= 0) {
      const from = linkedFrom ? basename(linkedFrom) : basename(path);
      notes.push(`${from} links ${basename(path)}, which links back to it${onStack < stack.length - 1 ? ' through other libraries' : ''}. Blender handles such loops; each file travels once.`);
      return;
    }
    if (visited.has(key)) return;
    visited.add(key);
    const traced = await traceOne(path, linkedFrom, { platform, sceneDir: dirname(scene), tempDir: options.tempDir });
    blends.push(traced);
    stack.push({ key, path });
    for (const dep of traced.dependencies) {
      if (dep.kind === 'library' && dep.status === 'found' && dep.files[0]) await visit(dep.files[0].path, path);
    }
    stack.pop();
  };

  await visit(scene, null);
  return { scene, blends, notes };
}

async function traceOne(path: string, linkedFrom: string | null, options: { platform: PathPlatform; sceneDir: string; tempDir: string | undefined }): Promise<TracedBlend> {
  let file: BlendFile;
  try {
    file = await BlendFile.open(path, options.tempDir ? { tempDir: options.tempDir } : {});
  } catch (error) {
    if (linkedFrom === null || !(error instanceof BlendFileError)) throw error;
    const { size, mtimeMs } = await stat(path).catch(() => ({ size: 0, mtimeMs: 0 }));
    return { path, linkedFrom, compression: null, version: null, size, mtimeMs, littleEndian: true, blockHeaderSize: 24, dependencies: [], error: error.message };
  }
  try {
    const references = await collectReferences(file);
    const dependencies = await mapLimit(references, PROBES_AT_ONCE, (ref) => resolveReference(ref, path, options));
    const { header } = file;
    const { mtimeMs } = await stat(path);
    return {
      mtimeMs,
      path,
      linkedFrom,
      compression: file.compression,
      version: header.version,
      size: file.size,
      littleEndian: header.littleEndian,
      blockHeaderSize: header.blockHeaderSize,
      dependencies,
      error: null,
    };
  } finally {
    await file.close();
  }
}
