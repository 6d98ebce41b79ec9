import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { asBlendFileError, type BlendCompression, BlendFile, BlendFileError, type FileIdentity } from '../reader';
import { collectReferences } from './collect-references';
import type { Dependency } from './dependency';
import { mapLimit } from './map-limit';
import type { PathReference } from './path-reference';
import { resolveReference, type ResolveOptions } from './resolve-reference';
import type { MayList } from './disk-probe';
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
  /**
   * Whether a folder may be listed: a cache folder walked (and each folder below it), a numbered
   * sequence's folder read. A folder refused is not read; its dependency is `outside`. The packer
   * refuses folders outside the scene's project that the artist did not allow. Absent: every folder may.
   */
  mayList?: MayList;
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
  const stack: string[] = [];

  const visit = async (path: string, linkedFrom: string | null): Promise<void> => {
    options.signal?.throwIfAborted();
    const opened = await openBlend(path, linkedFrom, options.tempDir);
    const key = opened.identity.ino >= 0 ? `${opened.identity.dev}:${opened.identity.ino}` : `path:${path}`;
    const onStack = stack.findIndex((entry) => entry === key);
    if (onStack >= 0 || visited.has(key)) {
      await opened.file?.close();
      if (onStack >= 0) {
        const from = linkedFrom ? basename(linkedFrom) : basename(path);
        notes.push(`${from} links ${basename(path)}, which links back to it${onStack < stack.length - 1 ? ' through other libraries' : ''}. Blender handles such loops; each file travels once.`);
      }
      return;
    }
    visited.add(key);
    const traced = await traceOne(opened, path, linkedFrom, { platform, sceneDir: dirname(scene), ...(options.mayList ? { mayList: options.mayList } : {}) });
    blends.push(traced);
    stack.push(key);
    for (const dep of traced.dependencies) {
      if (dep.kind === 'library' && dep.status === 'found' && dep.files[0]) await visit(dep.files[0].path, path);
    }
    stack.pop();
  };

  await visit(scene, null);
  return { scene, blends, notes };
}

interface Opened {
  file: BlendFile | null;
  identity: FileIdentity;
  /** Why a library could not be read. */
  error: string | null;
  size: number;
}

/** Open a .blend; a library that cannot be read is returned with its error (the scene must be readable). */
async function openBlend(path: string, linkedFrom: string | null, tempDir: string | undefined): Promise<Opened> {
  try {
    const file = await BlendFile.open(path, tempDir ? { tempDir } : {});
    return { file, identity: file.identity, error: null, size: file.size };
  } catch (error) {
    if (linkedFrom === null || !(error instanceof BlendFileError)) throw error;
    const info = await stat(path).catch(() => null);
    const identity = info ? { dev: info.dev, ino: info.ino, mtimeMs: info.mtimeMs } : { dev: -1, ino: -1, mtimeMs: 0 };
    return { file: null, identity, error: error.message, size: info?.size ?? 0 };
  }
}

async function traceOne(opened: Opened, path: string, linkedFrom: string | null, options: ResolveOptions): Promise<TracedBlend> {
  const { file, identity } = opened;
  const unread = (error: string | null): TracedBlend => ({
    path, linkedFrom, compression: null, version: null, size: opened.size, mtimeMs: identity.mtimeMs, littleEndian: true, blockHeaderSize: 24, dependencies: [], error,
  });
  if (!file) return unread(opened.error);
  try {
    const references = await readReferences(file, linkedFrom);
    if (!Array.isArray(references)) return unread(references.message);
    const dependencies = await mapLimit(references, PROBES_AT_ONCE, (ref) => resolveReference(ref, path, options));
    const { header } = file;
    return {
      path,
      linkedFrom,
      compression: file.compression,
      version: header.version,
      size: file.size,
      mtimeMs: identity.mtimeMs,
      littleEndian: header.littleEndian,
      blockHeaderSize: header.blockHeaderSize,
      dependencies,
      error: null,
    };
  } finally {
    await file.close();
  }
}

/**
 * The paths a .blend stores; whatever its bytes make go wrong is a BlendFileError, thrown for the
 * scene and returned for a library (which then travels as it is).
 */
async function readReferences(file: BlendFile, linkedFrom: string | null): Promise<PathReference[] | BlendFileError> {
  try {
    return await collectReferences(file);
  } catch (error) {
    const failure = asBlendFileError(file.path, error);
    if (linkedFrom === null) throw failure;
    return failure;
  }
}
