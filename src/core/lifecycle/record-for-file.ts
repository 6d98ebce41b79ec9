import { resolve } from 'node:path';
import type { RenderConfig } from '../../shared/api/render-config';
import { sameServer } from '../../shared/server-key';
import type { SubmissionJournal } from '../journal/submission-journal';
import type { SubmissionRecord } from '../journal/submission-record';
import { preflight } from '../upload/preflight';

/** What a file is submitted with. */
export interface FileSubmission {
  filePath: string;
  baseUrl: string;
  profileId: string | null;
  renderConfig?: RenderConfig | null;
  download?: SubmissionRecord['download'];
  /** Pack a .blend with the files it uses (default true; false sends it alone). */
  pack?: boolean;
  /**
   * Asked when this very file (same path, size and modification time) has an unfinished submission
   * to the same server: true continues that one, false sets it aside (it ends as declined) and starts
   * a new one. Without it a new submission is always started and the earlier one left as it is.
   */
  continueEarlier?: (earlier: SubmissionRecord) => Promise<boolean>;
}

/** The record to run for a file, and what became of an earlier unfinished submission of it. */
export interface RecordForFile {
  record: SubmissionRecord;
  /** The earlier submission, when one was found and asked about. */
  earlier: { record: SubmissionRecord; continued: boolean } | null;
}

/**
 * Finds or creates the journal record for a file: checks the file first (nothing is recorded for a
 * file that fails), then continues its unfinished submission when `continueEarlier` says so (taking
 * a download folder the earlier one did not have yet), else records a new one. Nothing is sent.
 */
export async function recordForFile(journal: SubmissionJournal, request: FileSubmission): Promise<RecordForFile> {
  const checked = await preflight(resolve(request.filePath));
  let earlier: RecordForFile['earlier'] = null;
  if (request.continueEarlier) {
    const existing = await journal.findUnfinishedForFile(checked.path, checked.size, checked.mtimeMs);
    if (existing && sameServer(existing.baseUrl, request.baseUrl)) {
      const continued = await request.continueEarlier(existing);
      earlier = { record: existing, continued };
      if (continued) {
        const wanted = request.download;
        const record = wanted?.wanted && existing.download.dir === null ? await journal.update(existing.id, { download: wanted }) : existing;
        return { record, earlier };
      }
      await journal.update(existing.id, { ending: 'declined' });
    }
  }
  const record = await journal.create({
    baseUrl: request.baseUrl,
    profileId: request.profileId,
    file: { path: checked.path, name: checked.fileName, size: checked.size, mtimeMs: checked.mtimeMs, fileType: checked.fileType },
    renderConfig: request.renderConfig ?? null,
    ...(request.download ? { download: request.download } : {}),
    ...(request.pack !== undefined ? { pack: request.pack } : {}),
  });
  return { record, earlier };
}
