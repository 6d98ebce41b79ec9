import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/render-node/store/db';
import { createKey, hashKey, listKeys, revokeKey, verifyKey } from '../../../src/render-node/store/keys';

let dir: string;
let db: Db;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-keys-'));
  db = openDatabase(dir);
});

afterEach(async () => {
  if (db.open) db.close();
  await rm(dir, { recursive: true, force: true });
});

const at = (s: string) => new Date(`2025-01-0${s}T10:00:00Z`);

describe('createKey', () => {
  it('returns RJ- followed by a 32-byte base64url token', () => {
    const { key, info } = createKey(db, 'laptop');
    expect(key).toMatch(/^RJ-[A-Za-z0-9_-]{43}$/);
    expect(info.name).toBe('laptop');
    expect(info.prefix).toBe(key.slice(0, 8));
    expect(info.revokedAt).toBeNull();
    expect(info.lastUsedAt).toBeNull();
  });

  it('makes a different key, id and user each time', () => {
    const a = createKey(db, 'a');
    const b = createKey(db, 'b');
    expect(a.key).not.toBe(b.key);
    expect(a.info.id).not.toBe(b.info.id);
    expect(a.info.userId).not.toBe(b.info.userId);
  });

  it('stores only the SHA-256 hash of the key', () => {
    const { key, info } = createKey(db, 'laptop');
    const row = db.prepare('SELECT * FROM api_keys WHERE id = ?').get(info.id) as Record<string, unknown>;
    expect(row.hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hashKey(key)).toBe(row.hash);
    const token = key.slice(3);
    for (const value of Object.values(row)) {
      expect(String(value)).not.toContain(key);
      expect(String(value)).not.toContain(token);
    }
  });

  it('never writes the plain key to the database files', async () => {
    const { key } = createKey(db, 'laptop');
    const token = Buffer.from(key.slice(3));
    const hash = Buffer.from(hashKey(key));
    let sawHash = false;
    for (const name of await readdir(dir)) {
      const bytes = await readFile(join(dir, name));
      expect(bytes.includes(token)).toBe(false);
      if (bytes.includes(hash)) sawHash = true;
    }
    db.close();
    for (const name of await readdir(dir)) {
      const bytes = await readFile(join(dir, name));
      expect(bytes.includes(token)).toBe(false);
      if (bytes.includes(hash)) sawHash = true;
    }
    expect(sawHash).toBe(true);
  });
});

describe('verifyKey', () => {
  it('accepts the key it made', () => {
    const { key, info } = createKey(db, 'laptop');
    expect(verifyKey(db, key)).toEqual(info);
  });

  it('tells keys apart', () => {
    const a = createKey(db, 'a');
    const b = createKey(db, 'b');
    expect(verifyKey(db, a.key)?.id).toBe(a.info.id);
    expect(verifyKey(db, b.key)?.id).toBe(b.info.id);
  });

  it('refuses keys it did not make or that were altered', () => {
    const { key } = createKey(db, 'laptop');
    const last = key.at(-1) === 'A' ? 'B' : 'A';
    expect(verifyKey(db, key.slice(0, -1) + last)).toBeNull();
    expect(verifyKey(db, `${key}x`)).toBeNull();
    expect(verifyKey(db, key.slice(3))).toBeNull();
    expect(verifyKey(db, `rj-${key.slice(3)}`)).toBeNull();
    expect(verifyKey(db, 'RJ-')).toBeNull();
    expect(verifyKey(db, '')).toBeNull();
    expect(verifyKey(db, `RJ-${'a'.repeat(500)}`)).toBeNull();
  });

  it('refuses the stored hash presented as a key', () => {
    const { key } = createKey(db, 'laptop');
    expect(verifyKey(db, hashKey(key))).toBeNull();
    expect(verifyKey(db, `RJ-${hashKey(key)}`)).toBeNull();
  });

  it('refuses a revoked key', () => {
    const { key, info } = createKey(db, 'laptop');
    revokeKey(db, info.id);
    expect(verifyKey(db, key)).toBeNull();
  });
});

describe('revokeKey', () => {
  it('revokes by full id and returns the key as revoked', () => {
    const { key, info } = createKey(db, 'laptop');
    const other = createKey(db, 'desktop');
    const when = new Date('2025-02-02T08:00:00Z');
    const revoked = revokeKey(db, info.id, when);
    expect(revoked).toEqual({ ...info, revokedAt: when.toISOString() });
    expect(verifyKey(db, key)).toBeNull();
    expect(verifyKey(db, other.key)).not.toBeNull();
  });

  it('revokes by a unique id prefix', () => {
    const { key, info } = createKey(db, 'laptop');
    expect(revokeKey(db, info.id.slice(0, 8))?.id).toBe(info.id);
    expect(verifyKey(db, key)).toBeNull();
  });

  it('revokes by name', () => {
    const { key, info } = createKey(db, 'render box');
    const other = createKey(db, 'laptop');
    expect(revokeKey(db, 'render box')?.id).toBe(info.id);
    expect(verifyKey(db, key)).toBeNull();
    expect(verifyKey(db, other.key)).not.toBeNull();
  });

  it('returns null when nothing matches, or the key is already revoked', () => {
    const { info } = createKey(db, 'laptop');
    expect(revokeKey(db, 'no-such-key')).toBeNull();
    expect(revokeKey(db, info.id)).not.toBeNull();
    expect(revokeKey(db, info.id)).toBeNull();
    expect(revokeKey(db, 'laptop')).toBeNull();
  });

  it('refuses an id prefix shared by several keys, revoking none', () => {
    const made = Array.from({ length: 17 }, (_, i) => createKey(db, `k${i}`));
    const byFirst = new Map<string, number>();
    for (const m of made) byFirst.set(m.info.id[0]!, (byFirst.get(m.info.id[0]!) ?? 0) + 1);
    const [shared, count] = [...byFirst.entries()].find(([, n]) => n > 1)!;
    expect(() => revokeKey(db, shared)).toThrow(`"${shared}" matches ${count} keys; give the full id.`);
    expect(listKeys(db).every((k) => k.revokedAt === null)).toBe(true);
  });

  it('refuses a name shared by several keys', () => {
    createKey(db, 'same');
    createKey(db, 'same');
    expect(() => revokeKey(db, 'same')).toThrow(/matches 2 keys/);
  });

  it.each(['', '%', '_', '%-%'])('matches nothing for %j (no empty prefix, no SQL wildcards)', (given) => {
    const { key } = createKey(db, 'only');
    expect(revokeKey(db, given)).toBeNull();
    expect(verifyKey(db, key)).not.toBeNull();
  });

  it('treats a name with SQL wildcard characters literally', () => {
    const literal = createKey(db, '50%_off');
    const other = createKey(db, 'other');
    expect(revokeKey(db, '50%_off')?.id).toBe(literal.info.id);
    expect(verifyKey(db, other.key)).not.toBeNull();
  });
});

describe('listKeys', () => {
  it('lists every key newest first, revoked ones included', () => {
    const a = createKey(db, 'first', at('1'));
    const b = createKey(db, 'second', at('3'));
    const c = createKey(db, 'third', at('2'));
    revokeKey(db, a.info.id, at('4'));
    const list = listKeys(db);
    expect(list.map((k) => k.name)).toEqual(['second', 'third', 'first']);
    expect(list[0]).toEqual(b.info);
    expect(list[1]).toEqual(c.info);
    expect(list[2]?.revokedAt).toBe(at('4').toISOString());
  });

  it('never contains a key or its hash', () => {
    const keys = [createKey(db, 'a'), createKey(db, 'b')];
    const listed = JSON.stringify(listKeys(db));
    for (const { key } of keys) {
      expect(listed).not.toContain(key.slice(3));
      expect(listed).not.toContain(hashKey(key));
    }
    for (const info of listKeys(db)) expect(Object.keys(info).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'userId']);
  });
});
