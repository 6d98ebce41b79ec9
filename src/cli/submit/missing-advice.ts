import { statSync } from 'node:fs';
import { dirname, isAbsolute, resolve as resolvePath } from 'node:path';
import type { SubmissionRecord } from '../../core/journal';
import { missingFiles } from '../../core/packing';
import type { MissingAdvice } from './format-analysis';

/**
 * What to do about a file the farm reports missing, given how the scene was sent: for a packed scene,
 * what fixes that very file (it did not travel because it is not on this computer, or is a Windows
 * path...); for a .blend sent alone, sending it packed only when the file is on this computer.
 */
export function missingAdvice(record: SubmissionRecord): MissingAdvice {
  if (record.packing !== null) {
    const files = missingFiles(record.packing, 'disk');
    return (path) => `The farm renders without it. ${files.find((file) => file.path === path)?.advice ?? ''}`.trim();
  }
  if (record.file.fileType === 'zip') return 'Add it to the .zip and submit again.';
  const sceneDir = dirname(record.file.path);
  return (path) => {
    if (!existsOnDisk(path, sceneDir)) return 'It is not on this computer either: put it back, or relink it in Blender (File > External Data > Find Missing Files), then submit again.';
    return record.pack ? 'Pack it into the .blend (File > External Data > Pack Resources) or send a .zip with it.' : 'Submit without --no-pack to send it with the scene.';
  };
}

/** Whether a path a scene stores (`//` relative to the scene's folder, or absolute) is a file on this disk. */
function existsOnDisk(stored: string, sceneDir: string): boolean {
  const path = stored.startsWith('//') ? resolvePath(sceneDir, stored.slice(2)) : isAbsolute(stored) ? stored : null;
  if (path === null) return false;
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
