import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ensurePrivateFile, ensurePrivateFolder } from '../../node-common/private-folder';
import { MIGRATIONS } from './migrations';
import { parseOptionalRow, parseRow } from './db-rows';

export type Db = Database.Database;

/**
 * Open (creating if needed) the node's database in `dataDir`, in WAL mode, migrated to the latest
 * schema. The folder is made private (0700, see ensurePrivateFolder) and the database file is 0600
 * whatever the umask; SQLite gives its journal files the database file's mode.
 */
export function openDatabase(dataDir: string): Db {
  ensurePrivateFolder(dataDir, 'data folder');
  const path = join(dataDir, 'node.sqlite');
  ensurePrivateFile(path);
  for (const journal of [`${path}-wal`, `${path}-shm`]) if (existsSync(journal)) ensurePrivateFile(journal);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  try {
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** Run every migration newer than the database's `user_version`. */
export function migrate(db: Db): void {
  const current = parseRow('pragma user_version', z.number().int(), db.pragma('user_version', { simple: true }));
  if (current > MIGRATIONS.length) {
    throw new Error(
      `This data folder was written by a newer Renderdrop (schema ${current}, this one knows ${MIGRATIONS.length}). Upgrade Renderdrop or use another --data folder.`,
    );
  }
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

/** Read a value from the meta table, creating it with `make()` the first time. */
export function metaValue(db: Db, key: string, make: () => string): string {
  const row = parseOptionalRow('meta', z.object({ value: z.string() }), db.prepare('SELECT value FROM meta WHERE key = ?').get(key));
  if (row) return row.value;
  const value = make();
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(key, value);
  return value;
}

/** The node's one workspace id, made on first use. */
export function workspaceId(db: Db): string {
  return metaValue(db, 'workspace_id', randomUUID);
}
