import { checkImageFile } from '../../node-common/images';

/** The image format a file of each output format is (the node's image check names the family). */
const FAMILY: Record<string, string> = { OPEN_EXR_MULTILAYER: 'OPEN_EXR', TARGA_RAW: 'TARGA' };

/**
 * Why a frame a worker sent must not count, or null when it may: it must be a whole image of the
 * job's output format. Checked before the frame reaches the render, so a bad upload is refused to its
 * sender alone and never stops the job.
 */
export async function frameProblem(path: string, outputFormat: string): Promise<string | null> {
  const check = await checkImageFile(path).catch(() => null);
  if (!check) return 'it could not be read';
  if (check.status === 'incomplete') return `it is not a whole image (${check.reason})`;
  if (check.status === 'unknown') return null;
  const wanted = FAMILY[outputFormat.toUpperCase()] ?? outputFormat.toUpperCase();
  return check.format === wanted ? null : `it is a ${check.format} file, not ${outputFormat}`;
}
