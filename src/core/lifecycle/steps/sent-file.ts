import type { FileType } from '../../../shared/api';
import type { SubmissionRecord } from '../../journal';

/** What a submission uploads: its bundle when it has one, else the file itself. */
export interface SentFile {
  path: string;
  /** The name the upload carries (a bundle is `<scene>.zip`). */
  name: string;
  size: number;
  fileType: FileType;
}

/** What a record uploads (a bundle's path may be gone once the job exists; its name stays). */
export function sentFile(record: Pick<SubmissionRecord, 'file' | 'bundle'>): SentFile {
  const { file, bundle } = record;
  if (bundle === null) return { path: file.path, name: file.name, size: file.size, fileType: file.fileType };
  return { path: bundle.path, name: `${file.name.replace(/\.blend$/i, '')}.zip`, size: bundle.size, fileType: 'zip' };
}
