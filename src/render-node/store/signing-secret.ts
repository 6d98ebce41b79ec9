import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateFile } from '../../node-common/private-folder';
import type { Db } from './db';

/** The file in a node's data folder that holds the secret its signed URLs are made with (mode 0600). */
export const SIGNING_SECRET_FILE = 'signing-secret';

/**
 * The node's URL-signing secret, kept in its own file readable by the node's user only, never in the
 * database (which backups and database tools read). Made on first use; a secret earlier versions kept
 * in the database moves to the file (so URLs already handed out keep working) and leaves the database.
 */
export function loadSigningSecret(db: Db, dataDir: string): Buffer {
  const path = join(dataDir, SIGNING_SECRET_FILE);
  const stored = readSecret(path);
  if (stored) {
    ensurePrivateFile(path);
    db.prepare("DELETE FROM meta WHERE key = 'signing_secret'").run();
    return stored;
  }
  const legacy = db.prepare("SELECT value FROM meta WHERE key = 'signing_secret'").get() as { value?: unknown } | undefined;
  const hex = typeof legacy?.value === 'string' && /^[0-9a-f]{64}$/.test(legacy.value) ? legacy.value : randomBytes(32).toString('hex');
  writeFileSync(path, `${hex}\n`, { mode: 0o600, flag: 'wx' });
  db.prepare("DELETE FROM meta WHERE key = 'signing_secret'").run();
  return Buffer.from(hex, 'hex');
}

function readSecret(path: string): Buffer | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${path} does not hold a URL-signing secret (64 hex digits). Move it away to let the node make a new one (signed URLs handed out before stop working).`);
  return Buffer.from(text, 'hex');
}
