import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { metaValue, migrate, openDatabase, workspaceId, type Db } from '../../../src/render-node/store/db';
import { MIGRATIONS } from '../../../src/render-node/store/migrations';

let dir: string;
const open: Db[] = [];

const track = (db: Db) => {
  open.push(db);
  return db;
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-db-'));
});

afterEach(async () => {
  for (const db of open.splice(0)) if (db.open) db.close();
  await rm(dir, { recursive: true, force: true });
});

const tables = (db: Db) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);

describe('openDatabase', () => {
  it('creates the data folder and a migrated database in it', () => {
    const dataDir = join(dir, 'nested', 'data');
    const db = track(openDatabase(dataDir));
    expect(existsSync(join(dataDir, 'node.sqlite'))).toBe(true);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(tables(db)).toEqual(
      expect.arrayContaining(['api_keys', 'frames', 'job_events', 'jobs', 'meta', 'uploads', 'webhook_deliveries']),
    );
  });

  it('uses WAL journaling and enforces foreign keys', () => {
    const db = track(openDatabase(dir));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('keeps data across a close and reopen without migrating again', () => {
    const first = track(openDatabase(dir));
    first.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('greeting', 'hello');
    first.close();
    const second = track(openDatabase(dir));
    expect(second.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(second.prepare('SELECT value FROM meta WHERE key = ?').get('greeting')).toEqual({ value: 'hello' });
  });

  it('sees writes of another open connection (WAL readers and writers together)', () => {
    const writer = track(openDatabase(dir));
    const reader = track(openDatabase(dir));
    writer.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('k', 'v');
    expect(reader.prepare('SELECT value FROM meta WHERE key = ?').get('k')).toEqual({ value: 'v' });
  });

  it('refuses a database written by a newer schema, saying what to do', () => {
    const raw = track(new Database(join(dir, 'node.sqlite')));
    raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    expect(() => openDatabase(dir)).toThrow(/newer Renderdrop/);
    expect(() => openDatabase(dir)).toThrow(`schema ${MIGRATIONS.length + 1}, this one knows ${MIGRATIONS.length}`);
    expect(() => openDatabase(dir)).toThrow(/Upgrade Renderdrop or use another --data folder/);
  });
});

describe('migrate', () => {
  it('brings an empty database to the latest version', () => {
    const db = track(new Database(':memory:'));
    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(tables(db)).toContain('jobs');
  });

  it('does nothing on an up-to-date database', () => {
    const db = track(new Database(':memory:'));
    migrate(db);
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('kept', 'yes');
    migrate(db);
    expect(db.prepare('SELECT value FROM meta WHERE key = ?').get('kept')).toEqual({ value: 'yes' });
  });

  it('leaves the version unchanged when a migration fails', () => {
    const db = track(new Database(':memory:'));
    db.exec('CREATE TABLE meta (x INTEGER)');
    expect(() => migrate(db)).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(tables(db)).toEqual(['meta']);
  });
});

describe('metaValue and workspaceId', () => {
  it('makes a meta value once and returns it afterwards', () => {
    const db = track(openDatabase(dir));
    let calls = 0;
    const make = () => `made-${++calls}`;
    expect(metaValue(db, 'thing', make)).toBe('made-1');
    expect(metaValue(db, 'thing', make)).toBe('made-1');
    expect(calls).toBe(1);
  });

  it('gives a UUID workspace id that stays the same across reopen', () => {
    const first = track(openDatabase(dir));
    const id = workspaceId(first);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(workspaceId(first)).toBe(id);
    first.close();
    const second = track(openDatabase(dir));
    expect(workspaceId(second)).toBe(id);
  });

  it('gives different data folders different workspace ids', async () => {
    const other = await mkdtemp(join(tmpdir(), 'rd-db-'));
    try {
      const a = track(openDatabase(dir));
      const b = track(openDatabase(other));
      expect(workspaceId(a)).not.toBe(workspaceId(b));
    } finally {
      for (const db of open.splice(0)) db.close();
      await rm(other, { recursive: true, force: true });
    }
  });
});
