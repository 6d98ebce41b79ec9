import { dirname } from 'node:path';
import type { SubmissionJournal, SubmissionRecord } from '../../journal';

/**
 * Whether cutting this submission's file into chunks can pay: the journal holds an earlier submission
 * of the same project (same scene file, or same project folder) to the same farm and profile that went
 * as a chunked upload, so the node may have most of its chunks from this key; or this submission
 * already began its upload (resumed after a stop), so the node may have kept what arrived. Otherwise
 * the node has nothing of it from this key, and the file is better sent whole without reading it first.
 */
export async function sentInChunksBefore(journal: SubmissionJournal, record: SubmissionRecord): Promise<boolean> {
  if (record.step === 'upload-target') return true;
  const project = projectOf(record);
  return (await journal.list()).some(
    (other) => other.id !== record.id && other.uploadSent !== undefined && other.baseUrl === record.baseUrl && other.profileId === record.profileId && (other.file.path === record.file.path || projectOf(other) === project),
  );
}

function projectOf(record: SubmissionRecord): string {
  return record.project ?? dirname(record.file.path);
}
