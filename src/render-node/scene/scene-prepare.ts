import { copyFile, link, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FailedReason } from '../../shared/api';
import type { JobRecord } from '../store/jobs-repo';
import { chooseScene, DEFAULT_ZIP_LIMITS, extractZip, unreadableZip } from './zip-extract';
import { surveyZip, zipExtractionRefusal } from './zip-survey';
import { freeBytes } from '../disk/disk-space';
import { safeFileName } from '../jobs/job-files';
import { severOutsidePaths, type SeveredPath } from '../../blend/pack';
import { NOT_UPLOADED } from './severed-paths';

/** Where a job's scene goes, and how much a zip may expand to. */
export interface ScenePrepareDeps {
  sceneDir: string;
  /** The uploaded file. */
  source: string;
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
 * open them before any script of the node runs); the uploaded file itself is never changed.
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
    return confined(join(dir, rel), rel, deps);
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const name = safeFileName(scene.fileName, 'scene.blend');
  const target = join(dir, name);
  await link(deps.source, target).catch(() => copyFile(deps.source, target));
  return confined(target, name, deps);
}

async function confined(scenePath: string, relative: string, deps: ScenePrepareDeps): Promise<PreparedScene> {
  const severed = await severOutsidePaths(scenePath, deps.sceneDir, { nowhere: NOT_UPLOADED, tempDir: deps.tempDir });
  return { ok: true, scenePath, relative, severed };
}
