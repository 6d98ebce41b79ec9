import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateJsonFile } from '../../node-common/private-folder';

/** The file, beside the data of the app's render node, that tells clients on this computer where it listens and with which key. */
export const LOCAL_CLIENT_FILE_NAME = 'local-client.json';

/** What `local-client.json` holds: the app's node address, a key made for local clients, and the app's process. */
export interface LocalClientInfo {
  version: 1;
  /** `http://127.0.0.1:<port>` */
  url: string;
  apiKey: string;
  pid: number;
}

/** Where the local-client file of a node data folder is. */
export function localClientFilePath(nodeDataDir: string): string {
  return join(nodeDataDir, LOCAL_CLIENT_FILE_NAME);
}

/** Writes the file readable by this user only (0600), replacing an earlier one in one rename. */
export async function writeLocalClientFile(nodeDataDir: string, info: LocalClientInfo): Promise<string> {
  return writePrivateJsonFile(localClientFilePath(nodeDataDir), info, info.pid);
}

/**
 * The running app's node as the file describes it, or null: no file, not one, readable by others or
 * another user's, on an address other than 127.0.0.1, or written by a process that is gone.
 */
export async function readLocalClientFile(nodeDataDir: string, isRunning: (pid: number) => boolean = processIsRunning): Promise<LocalClientInfo | null> {
  const path = localClientFilePath(nodeDataDir);
  try {
    if (process.platform !== 'win32') {
      const info = await stat(path);
      if ((info.mode & 0o077) !== 0 || (process.getuid && info.uid !== process.getuid())) return null;
    }
    const value = JSON.parse(await readFile(path, 'utf8')) as Partial<LocalClientInfo> | null;
    if (!value || value.version !== 1 || typeof value.url !== 'string' || typeof value.apiKey !== 'string' || typeof value.pid !== 'number') return null;
    if (!/^http:\/\/127\.0\.0\.1:\d{1,5}$/.test(value.url) || !isRunning(value.pid)) return null;
    return { version: 1, url: value.url, apiKey: value.apiKey, pid: value.pid };
  } catch {
    return null;
  }
}

/** Removes the file only when it is still the one with this key (another app started since keeps its own). */
export async function removeOwnLocalClientFile(nodeDataDir: string, apiKey: string): Promise<void> {
  const path = localClientFilePath(nodeDataDir);
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as Partial<LocalClientInfo> | null;
    if (value?.apiKey === apiKey) await rm(path, { force: true });
  } catch {
    // Already gone, or not a file of ours.
  }
}

/** Whether a process with this id exists (a process of another user counts: it still holds the id). */
export function processIsRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
