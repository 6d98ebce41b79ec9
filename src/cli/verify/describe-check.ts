import type { FolderCheck } from '../../core/verify';
import { describeFrames } from '../../shared/render';
import { countOf } from '../../shared/text';


/** What a folder check found, in a few lines for people. */
export function describeCheck(check: Pick<FolderCheck, 'folder' | 'expected' | 'present' | 'missing' | 'broken'> & { downloadable?: number[] }): string[] {
  const lines = [`Folder: ${check.folder}`];
  if (check.missing.length === 0 && check.broken.length === 0) {
    lines.push(`Complete: all ${countOf(check.expected, 'frame')} are there and whole.`);
    return lines;
  }
  lines.push(`${check.present.length} of ${countOf(check.expected, 'frame')} are there and whole.`);
  if (check.missing.length > 0) lines.push(`Missing: ${countOf(check.missing.length, 'frame')} (${describeFrames(check.missing)}).`);
  for (const b of check.broken) lines.push(`Unusable: frame ${b.frame} (${b.fileName}): ${b.reason}.`);
  const downloadable = check.downloadable ?? [];
  if (downloadable.length > 0) {
    lines.push(`The server still has ${downloadable.length === 1 ? 'frame' : 'frames'} ${describeFrames(downloadable)}: downloading the job again fetches ${downloadable.length === 1 ? 'it' : 'them'} without rendering.`);
  }
  return lines;
}

/** The result of a check as `verify --json` prints it. */
export function checkJson(check: Pick<FolderCheck, 'folder' | 'expected' | 'present' | 'missing' | 'broken'> & { downloadable?: number[] }) {
  return {
    folder: check.folder,
    expected: check.expected,
    present: check.present.length,
    missing: check.missing,
    broken: check.broken.map((b) => ({ frame: b.frame, fileName: b.fileName, reason: b.reason })),
    downloadable: check.downloadable ?? [],
    complete: check.missing.length === 0 && check.broken.length === 0,
  };
}
