import { join } from 'node:path';
import { acquireDataLock, type DataLock, DiskReserve, freeBytesSync, isDiskFullError, Storage } from '../disk';
import { openDatabase, type Db } from './db';
import { formatBytes } from '../../shared/text';
import { ensurePrivateFolder, FolderNotPrivateError } from '../../node-common/private-folder';

/** A node's data folder, opened: locked, database migrated and writable, folders in place. */
export interface NodeData {
  lock: DataLock;
  db: Db;
  storage: Storage;
  reserve: DiskReserve;
  /** One line when the folder could be read by other users and was made private on opening, else null. */
  madePrivate: string | null;
}

/** The node could not start on its data folder; `message` is one line for the person starting it. */
export class NodeStartError extends Error {
  override readonly name = 'NodeStartError';
}

async function attempt(dataDir: string, stamp: string): Promise<Omit<NodeData, 'reserve' | 'madePrivate'>> {
  const lock = await acquireDataLock(dataDir);
  try {
    const db = openDatabase(dataDir);
    try {
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('started_at', ?)").run(stamp);
      return { lock, db, storage: new Storage(dataDir) };
    } catch (err) {
      db.close();
      throw err;
    }
  } catch (err) {
    lock.release();
    throw err;
  }
}

/**
 * The data folder made (0700) or made private again when other users could read it (the line saying
 * so); one that cannot be made private stops the node, in one line: it holds every scene, frame and
 * the URL-signing secret.
 */
function privateDataFolder(dataDir: string): string | null {
  try {
    return ensurePrivateFolder(dataDir, 'data folder');
  } catch (error) {
    if (error instanceof FolderNotPrivateError) throw new NodeStartError(`${error.message} The render node did not start.`);
    if (isDiskFullError(error)) return null;
    throw error;
  }
}

/**
 * Lock and open a data folder, and prove the database can be written, so that a node either starts
 * whole or not at all. On a full disk the reserve a previous run left is given up to make room; when
 * that is not enough, a NodeStartError says so in one line.
 */
export async function openNodeData(dataDir: string, now: Date, reserveBytes?: number): Promise<NodeData> {
  const madePrivate = privateDataFolder(dataDir);
  const reserve = new DiskReserve(join(dataDir, 'reserve'), reserveBytes);
  const stamp = now.toISOString();
  try {
    return { ...(await attempt(dataDir, stamp)), reserve, madePrivate };
  } catch (err) {
    if (!isDiskFullError(err)) throw err;
    if (reserve.release()) {
      try {
        return { ...(await attempt(dataDir, stamp)), reserve, madePrivate };
      } catch (again) {
        if (!isDiskFullError(again)) throw again;
      }
    }
    let free = 0;
    try {
      free = freeBytesSync(dataDir);
    } catch {
      // the folder itself could not be made
    }
    throw new NodeStartError(
      `The disk holding ${dataDir} is full (${formatBytes(free)} free), so the render node cannot record anything; it did not start. Free some space there, then start it again.`,
    );
  }
}
