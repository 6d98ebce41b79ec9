import yauzl from 'yauzl';
import type { FailedReason } from '../../shared/api';
import { notEnoughSpaceReason } from '../disk';
import { formatBytes } from '../../shared/text';

/** What a zip's central directory declares. */
export interface ZipSurvey {
  entries: number;
  /** Sum of the declared sizes of its entries once extracted. */
  totalBytes: number;
}

/**
 * Read a zip's central directory (not its data) and add up what it would extract to. The sizes are
 * the declared ones; extraction checks each entry against its declaration.
 */
export async function surveyZip(zipPath: string): Promise<ZipSurvey> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(zipPath, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: false }, (err, z) => (err ? reject(err) : resolve(z!))),
  );
  try {
    return await new Promise<ZipSurvey>((resolve, reject) => {
      const survey: ZipSurvey = { entries: 0, totalBytes: 0 };
      zip.on('error', reject);
      zip.on('end', () => resolve(survey));
      zip.on('entry', (entry: yauzl.Entry) => {
        survey.entries++;
        survey.totalBytes += entry.uncompressedSize;
        zip.readEntry();
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

/**
 * Why a surveyed zip must not be extracted: it expands past `maxBytes`, or past the free space (less
 * `headroomBytes`); null when it may.
 */
export function zipExtractionRefusal(survey: ZipSurvey, maxBytes: number, freeBytes: number, headroomBytes: number): FailedReason | null {
  if (survey.totalBytes > maxBytes) {
    return {
      name: 'ZipTooLarge',
      type: 'zip',
      message: `The zip expands to ${formatBytes(survey.totalBytes)}; this render node accepts at most ${formatBytes(maxBytes)}. Leave out what the scene does not need.`,
    };
  }
  if (survey.totalBytes + headroomBytes > freeBytes) return notEnoughSpaceReason('unpacking the zip', survey.totalBytes, freeBytes);
  return null;
}
