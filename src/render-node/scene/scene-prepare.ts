import { copyFile, link, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FailedReason } from '../../shared/api';
import type { JobRecord } from '../store';
import { chooseScene, DEFAULT_ZIP_LIMITS, extractZip, unreadableZip } from './zip-extract';
import { surveyZip, zipExtractionRefusal } from './zip-survey';
import { freeBytes, safeFileName } from '../disk';
import type { SeveredPath } from '../../blend/pack';
import { severScene } from './sever-scene';
import { UnreadableSceneError } from './unreadable-scene-error';
import { sceneContentRefusal } from './scene-content';
import { blendFilesOf } from '../../shared/zip';

/** Where a job's scene goes, and how much a zip may expand to. */
export interface ScenePrepareDeps {
  sceneDir: string;
  /** The uploaded file. */
  source: string;
  /** Most a zip may expand to, and a compressed .blend may unpack to. */
  maxExtractedBytes: number;
  /** Disk space kept free beyond the extracted files. */
  headroomBytes: number;
  /** Scratch folder (for a decompressed copy of a compressed .blend whose paths are cut off). */
  tempDir: string;
}

/** A scene in place; `severed`: its libraries and fonts that led outside its folder, now pointing at nothing. */
export type PreparedScene = { ok: true; scenePath: string; relative: string; severed: SeveredPath[] } | { ok: false; reason: FailedReason };

/**
 * Put a job's scene in its folder and name the .blend to open. A zip is surveyed first (its central
 * directory only): one that expands past the limit or the free space is refused before anything is
 * written; then it is extracted safely. Problems with the zip's contents throw a ZipError. The .blend's
 * libraries and fonts that lead outside the folder are then pointed at nothing (Blender's loader would
 * open them before any script of the node runs); the uploaded file itself is never changed. A scene
 * the reader cannot read, or whose .blend files are not .blend files once unpacked or unpack past the
 * node's limit, is refused in one line, never handed to Blender.
 */
export async function prepareScene(job: JobRecord, deps: ScenePrepareDeps): Promise<PreparedScene> {
  const scene = job.sceneFile!;
  const dir = deps.sceneDir;
  if (scene.fileType === 'zip') {
    let survey;
    try {
      survey = await surveyZip(deps.source);
    } catch (err) {
      throw unreadableZip(err);
    }
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const refusal = zipExtractionRefusal(survey, deps.maxExtractedBytes, await freeBytes(dir), deps.headroomBytes);
    if (refusal) return { ok: false, reason: refusal };
    const files = await extractZip(deps.source, dir, { ...DEFAULT_ZIP_LIMITS, maxTotalBytes: deps.maxExtractedBytes });
    const rel = chooseScene(files, job.validateConfig?.scenePath);
    const unfit = await sceneContentRefusal(dir, blendFilesOf(files), deps.maxExtractedBytes);
    if (unfit) return { ok: false, reason: unfit };
    return confined(join(dir, rel), rel, deps);
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const name = safeFileName(scene.fileName, 'scene.blend');
  const target = join(dir, name);
  await link(deps.source, target).catch(() => copyFile(deps.source, target));
  const unfit = await sceneContentRefusal(dir, [name], deps.maxExtractedBytes);
  if (unfit) return { ok: false, reason: unfit };
  return confined(target, name, deps);
}

/** Sever the scene's outside paths; a scene the reader cannot read is refused here, before Blender sees it. */
async function confined(scenePath: string, relative: string, deps: ScenePrepareDeps): Promise<PreparedScene> {
  try {
    return { ok: true, scenePath, relative, severed: await severScene(scenePath, deps.sceneDir, deps.tempDir) };
  } catch (error) {
    if (error instanceof UnreadableSceneError) return { ok: false, reason: error.reason };
    throw error;
  }
}
