import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateJsonFile } from '../../node-common/private-folder';

/** The file, in the Renderdrop config folder, that tells the Blender add-on where the running app listens. */
export const HANDOVER_FILE_NAME = 'handover.json';

/** What `handover.json` holds. */
export interface HandoverInfo {
  version: 1;
  /** `http://127.0.0.1:<port>/handover` */
  url: string;
  /** The secret a hand-over must present as `Authorization: Bearer <token>`. */
  token: string;
  pid: number;
}

/** Where `handover.json` lives for a config folder. */
export function handoverFilePath(configDir: string): string {
  return join(configDir, HANDOVER_FILE_NAME);
}

/**
 * Writes `handover.json` readable and writable by this user only (0600), replacing any earlier one in
 * one rename so a reader never sees half a file or a moment where others could read it.
 */
export async function writeHandoverFile(configDir: string, info: HandoverInfo): Promise<string> {
  return writePrivateJsonFile(handoverFilePath(configDir), info, info.pid);
}

/** The hand-over file of a config folder, or null when there is none or it is not one. */
export async function readHandoverFile(configDir: string): Promise<HandoverInfo | null> {
  let text: string;
  try {
    text = await readFile(handoverFilePath(configDir), 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text) as Partial<HandoverInfo> | null;
    if (!value || value.version !== 1 || typeof value.url !== 'string' || typeof value.token !== 'string' || typeof value.pid !== 'number') return null;
    return { version: 1, url: value.url, token: value.token, pid: value.pid };
  } catch {
    return null;
  }
}

/**
 * Removes `handover.json` only when it is still this listener's (same token): another app started
 * since may have written its own, which must stay. Answers whether it was removed.
 */
export async function removeOwnHandoverFile(configDir: string, token: string): Promise<boolean> {
  const current = await readHandoverFile(configDir);
  if (!current || current.token !== token) return false;
  await rm(handoverFilePath(configDir), { force: true });
  return true;
}
