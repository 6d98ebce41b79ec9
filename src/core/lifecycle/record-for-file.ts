import { resolve } from 'node:path';
import type { RenderConfig } from '../../shared/api';
import { sameServer } from '../../shared/settings';
import type { SubmissionJournal, SubmissionRecord } from '../journal';
import { defaultScene, namedScene } from '../../shared/zip';
import { PreflightError } from '../errors';
import { preflight, type PreflightResult } from '../upload';
import { scenesToChooseFrom, validateBodyChoosing } from './scene-choice';

/** What a file is submitted with. */
export interface FileSubmission {
  filePath: string;
  baseUrl: string;
  profileId: string | null;
  renderConfig?: RenderConfig | null;
  download?: SubmissionRecord['download'];
  /** Pack a .blend with the files it uses (default true; false sends it alone). */
  pack?: boolean;
  /** Files held at the packing boundary that may travel: files or folders holding them (default none). */
  allowOutside?: string[];
  /** The scene's project folder, a folder holding the scene (default: the scene's folder). */
  project?: string;
  /**
   * Asked when this very file (same path, size and modification time) has an unfinished submission
   * to the same server: true continues that one, false sets it aside (it ends as declined) and starts
   * a new one. Without it a new submission is always started and the earlier one left as it is.
   */
  continueEarlier?: (earlier: SubmissionRecord) => Promise<boolean>;
  /** The scene of a zip to render (a path inside it); a file without that scene fails its checks. */
  scenePath?: string;
  /**
   * Asked when a zip holds several scenes and `scenePath` names none: answers the one to render (or
   * throws to refuse the file). Without it the submission is recorded with the choice still to make,
   * and waits for it after the upload (`ClaimedSubmission.chooseScene`).
   */
  chooseScene?: (scenes: string[], fileName: string) => Promise<string>;
}

/** The record to run for a file, and what became of an earlier unfinished submission of it. */
export interface RecordForFile {
  record: SubmissionRecord;
  /** The earlier submission, when one was found and asked about. */
  earlier: { record: SubmissionRecord; continued: boolean } | null;
}

/**
 * Finds or creates the journal record for a file: checks the file first (nothing is recorded for a
 * file that fails), settles the scene of a zip that holds several when it can (`scenePath`,
 * `chooseScene`), then continues its unfinished submission when `continueEarlier` says so (taking a
 * download folder or a scene the earlier one did not have yet), else records a new one. Nothing is sent.
 */
export async function recordForFile(journal: SubmissionJournal, request: FileSubmission): Promise<RecordForFile> {
  const checked = await preflight(resolve(request.filePath));
  const scenePath = await sceneToRender(checked, request);
  const validateBody = scenePath !== null ? { scenePath } : null;
  let earlier: RecordForFile['earlier'] = null;
  if (request.continueEarlier) {
    const existing = await journal.findUnfinishedForFile(checked.path, checked.size, checked.mtimeMs);
    if (existing && sameServer(existing.baseUrl, request.baseUrl)) {
      const continued = await request.continueEarlier(existing);
      earlier = { record: existing, continued };
      if (continued) {
        const wanted = request.download;
        const record = wanted?.wanted && existing.download.dir === null ? await journal.update(existing.id, { download: wanted }) : existing;
        const choosing = scenePath !== null && scenesToChooseFrom(record) !== null;
        return { record: choosing ? await journal.update(record.id, { validateBody: validateBodyChoosing(record, scenePath) }) : record, earlier };
      }
      await journal.update(existing.id, { ending: 'declined' });
    }
  }
  const record = await journal.create({
    baseUrl: request.baseUrl,
    profileId: request.profileId,
    file: {
      path: checked.path,
      name: checked.fileName,
      size: checked.size,
      mtimeMs: checked.mtimeMs,
      fileType: checked.fileType,
      ...(checked.fileType === 'zip' ? { blendFiles: checked.blendEntries } : {}),
    },
    renderConfig: request.renderConfig ?? null,
    validateBody,
    ...(request.download ? { download: request.download } : {}),
    ...(request.pack !== undefined ? { pack: request.pack } : {}),
    ...(request.allowOutside && request.allowOutside.length > 0 ? { allowOutside: request.allowOutside.map((path) => resolve(path)) } : {}),
    ...(request.project !== undefined && checked.fileType === 'blend' ? { project: resolve(request.project) } : {}),
  });
  return { record, earlier };
}

/**
 * The scene of the file to name when validating: the one `request` names (checked against the zip),
 * else the one `chooseScene` picks when the zip holds several; null when the server's own choice is
 * the right one or the choice is left for later.
 */
async function sceneToRender(checked: PreflightResult, request: FileSubmission): Promise<string | null> {
  const blends = checked.blendEntries;
  if (request.scenePath !== undefined) {
    if (checked.fileType !== 'zip') {
      throw new PreflightError('scene-not-in-zip', `${checked.fileName} is a .blend file, not a zip: there is no scene inside it to choose.`);
    }
    const named = namedScene(blends, request.scenePath);
    if (named === null) throw new PreflightError('scene-not-in-zip', `${checked.fileName} has no scene "${request.scenePath}". It holds: ${blends.join(', ')}.`);
    return named;
  }
  const scene = defaultScene(blends);
  if (scene.kind !== 'several' || !request.chooseScene) return null;
  const picked = await request.chooseScene(scene.candidates, checked.fileName);
  const named = namedScene(blends, picked);
  if (named === null) throw new PreflightError('scene-not-in-zip', `${checked.fileName} has no scene "${picked}". It holds: ${blends.join(', ')}.`);
  return named;
}
