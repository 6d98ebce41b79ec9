import { copyFile, link, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FailedReason } from '../shared/api';
import type { JobRecord } from './jobs-repo';
import { chooseScene, DEFAULT_ZIP_LIMITS, extractZip, unreadableZip } from './zip-extract';
import { surveyZip, zipExtractionRefusal } from './zip-survey';
import { freeBytes } from './disk-space';
import { safeFileName } from './job-files';

/** Where a job's scene goes, and how much a zip may expand to. */
export interface ScenePrepareDeps {
  sceneDir: string;
  /** The uploaded file. */
  source: string;
  maxExtractedBytes: number;
  /** Disk space kept free beyond the extracted files. */
  headroomBytes: number;
}

export type PreparedScene = { ok: true; scenePath: string; relative: string } | { ok: false; reason: FailedReason };

/**
 * Put a job's scene in its folder and name the .blend to open. A zip is surveyed first (its central
 * directory only): one that expands past the limit or the free space is refused before anything is
 * written; then it is extracted safely. Problems with the zip's contents throw a ZipError.
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
    return { ok: true, scenePath: join(dir, rel), relative: rel };
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const name = safeFileName(scene.fileName, 'scene.blend');
  const target = join(dir, name);
  await link(deps.source, target).catch(() => copyFile(deps.source, target));
  return { ok: true, scenePath: target, relative: name };
}
