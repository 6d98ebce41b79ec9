import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { renderConfigSchema, type RenderConfig, type Job, isTerminalStatus } from '../../shared/api';
import { formatFrames } from '../../shared/render';
import { InvalidStateError } from '../errors';
import { recordedRenderConfig, type SubmissionJournal, type SubmissionRecord } from '../journal';
import { chosenScene, recordForFile } from '../lifecycle';
import type { FolderCheck } from './check-folder';
import { framesToRender } from './verify-job-folder';

/** The render settings of the original job with frame ranges of exactly `frames`. */
export function missingFramesConfig(original: Pick<SubmissionRecord, 'renderConfig'> | null, job: Pick<Job, 'requestedConfig'>, frames: readonly number[]): RenderConfig {
  const requested = renderConfigSchema.safeParse(job.requestedConfig);
  const base = (original ? recordedRenderConfig(original) : null) ?? (requested.success ? requested.data : null) ?? { colorManagementPreset: 'default' };
  return { ...base, frameRanges: [formatFrames(frames)] };
}

/**
 * Why the frames of a job cannot be rendered again from this computer (null when they can): the
 * journal must know the scene file it was submitted from, and that file must still be there.
 */
export async function sceneRefusal(original: SubmissionRecord | null): Promise<string | null> {
  if (!original) return 'This job was not sent from this computer, so its scene file is not known here. Send the scene again and choose the missing frames.';
  const found = await stat(original.file.path).catch(() => null);
  if (!found?.isFile()) return `The scene file ${original.file.name} is no longer where it was sent from (${original.file.path}).`;
  return null;
}

/** What rendering the missing frames of a checked folder starts from. */
export interface MissingFramesRequest {
  journal: SubmissionJournal;
  /** The journal record of the job's submission (it knows the scene file and the settings). */
  original: SubmissionRecord | null;
  job: Job;
  check: FolderCheck;
}

/**
 * Records a new submission of the original scene, with its settings, that renders exactly the frames
 * a folder misses (or holds broken) and downloads them into that folder. The broken files are removed
 * first, so the new frames take their place. Nothing is sent: run the record like any submission.
 */
export async function recordMissingFrames(request: MissingFramesRequest): Promise<{ record: SubmissionRecord; frames: number[] }> {
  if (!isTerminalStatus(request.job.status)) {
    throw new InvalidStateError(`This job is still ${request.job.status}; its missing frames can be rendered once it has finished.`, { code: 'job-active' });
  }
  const frames = framesToRender(request.check);
  if (frames.length === 0) throw new InvalidStateError('Every frame of this job is in its folder; there is nothing to render.', { code: 'nothing-missing' });
  const refusal = await sceneRefusal(request.original);
  if (refusal !== null || !request.original) throw new InvalidStateError(refusal ?? 'The scene file is not known.', { code: 'scene-unavailable' });
  for (const broken of request.check.broken) await rm(join(request.check.folder, broken.fileName), { force: true });
  const record = await recordFramesAgain({ journal: request.journal, original: request.original, job: request.job, frames, folder: request.check.folder });
  return { record, frames };
}

/**
 * Records a new submission of a job's original scene, with its settings, that renders exactly `frames`
 * and downloads them into `folder` (null: where the original was to be downloaded, if it was). Nothing
 * is sent: run the record like any submission. This is how frames are rendered again on a farm that
 * cannot render them inside their job.
 */
export async function recordFramesAgain(o: { journal: SubmissionJournal; original: SubmissionRecord; job: Pick<Job, 'requestedConfig'>; frames: readonly number[]; folder: string | null }): Promise<SubmissionRecord> {
  const original = o.original;
  const scenePath = chosenScene(original);
  const folder = o.folder ?? (original.download.wanted ? (original.downloadedTo ?? original.download.dir) : null);
  const { record } = await recordForFile(o.journal, {
    filePath: original.file.path,
    baseUrl: original.baseUrl,
    profileId: original.profileId,
    renderConfig: missingFramesConfig(original, o.job, o.frames),
    download: folder !== null ? { wanted: true, dir: folder, root: null } : original.download,
    pack: original.pack,
    ...(original.allowOutside ? { allowOutside: original.allowOutside } : {}),
    ...(original.project !== undefined ? { project: original.project } : {}),
    ...(scenePath !== null ? { scenePath } : {}),
  });
  return record;
}
