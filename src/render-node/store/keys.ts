import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Db } from './db';
import { parseOptionalRow, parseRow } from './db-rows';

/** An API key as listed (never the key itself). */
export interface ApiKeyInfo {
  id: string;
  name: string;
  userId: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const KEY_PREFIX = 'RJ-';

/** SHA-256 of a key; keys are random 32-byte tokens, so a fast hash is enough to store them safely. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Create a new key; the plain key is returned once and only its hash is stored. */
export function createKey(db: Db, name: string, now = new Date()): { key: string; info: ApiKeyInfo } {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  const info: ApiKeyInfo = {
    id: randomUUID(),
    name,
    userId: randomUUID(),
    prefix: key.slice(0, 8),
    createdAt: now.toISOString(),
    lastUsedAt: null,
    revokedAt: null,
  };
  db.prepare(
    'INSERT INTO api_keys (id, name, user_id, hash, prefix, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(info.id, name, info.userId, hashKey(key), info.prefix, info.createdAt);
  return { key, info };
}

const keyRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  user_id: z.string(),
  hash: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
type KeyRow = z.infer<typeof keyRowSchema>;
const keyRow = (row: unknown): KeyRow => parseRow('api_keys', keyRowSchema, row);

const toInfo = (r: KeyRow): ApiKeyInfo => ({
  id: r.id,
  name: r.name,
  userId: r.user_id,
  prefix: r.prefix,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

/** Every key, newest first, revoked ones included. */
export function listKeys(db: Db): ApiKeyInfo[] {
  return db.prepare('SELECT * FROM api_keys ORDER BY created_at DESC').all().map(keyRow).map(toInfo);
}

/** Revoke a key by id, id prefix or name; returns the revoked key, or null when none matched. */
export function revokeKey(db: Db, idOrName: string, now = new Date()): ApiKeyInfo | null {
  if (idOrName.trim() === '') return null;
  const rows = db
    .prepare('SELECT * FROM api_keys WHERE revoked_at IS NULL AND (id = ? OR name = ? OR substr(id, 1, length(?)) = ?)')
    .all(idOrName, idOrName, idOrName, idOrName)
    .map(keyRow);
  if (rows.length === 0) return null;
  if (rows.length > 1) throw new Error(`"${idOrName}" matches ${rows.length} keys; give the full id.`);
  const row = rows[0]!;
  db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(now.toISOString(), row.id);
  return toInfo({ ...row, revoked_at: now.toISOString() });
}

/** Find the active key matching a presented bearer token, or null. */
export function verifyKey(db: Db, presented: string): ApiKeyInfo | null {
  if (!presented.startsWith(KEY_PREFIX) || presented.length > 200) return null;
  const hash = hashKey(presented);
  const row = parseOptionalRow('api_keys', keyRowSchema, db.prepare('SELECT * FROM api_keys WHERE hash = ? AND revoked_at IS NULL').get(hash));
  if (!row) return null;
  if (!timingSafeEqual(Buffer.from(row.hash, 'hex'), Buffer.from(hash, 'hex'))) return null;
  return toInfo(row);
}

/** Whether the key with this id exists and is not revoked (signed URLs die with their key). */
export function isKeyActive(db: Db, keyId: string): boolean {
  return db.prepare('SELECT 1 FROM api_keys WHERE id = ? AND revoked_at IS NULL').get(keyId) !== undefined;
}

/** The id of the key a user id belongs to (each key has its own user), or null. */
export function keyIdOfUser(db: Db, userId: string): string | null {
  const row: unknown = db.prepare('SELECT id FROM api_keys WHERE user_id = ?').get(userId);
  return row && typeof row === 'object' && 'id' in row && typeof row.id === 'string' ? row.id : null;
}
