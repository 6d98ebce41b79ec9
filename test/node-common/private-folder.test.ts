import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePrivateFile, ensurePrivateFolder, FolderNotPrivateError } from '../../src/node-common/private-folder';
import { openDatabase } from '../../src/render-node/store/db';
import { loadSigningSecret, SIGNING_SECRET_FILE } from '../../src/render-node/store/signing-secret';
import { SettingsStore } from '../../src/core/settings/settings-store';

const modeOf = async (path: string) => (await stat(path)).mode & 0o7777;

describe.skipIf(process.platform === 'win32')('folders and files only their owner can read, whatever the umask', () => {
  let root: string;
  let umask: number;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'rd-private-'));
    umask = process.umask(0o022);
  });
  afterAll(async () => {
    process.umask(umask);
    await rm(root, { recursive: true, force: true });
  });

  it('makes new folders 0700 and files 0600, and says nothing when nothing was repaired', async () => {
    const dir = join(root, 'new', 'data');
    expect(ensurePrivateFolder(dir, 'data folder')).toBeNull();
    expect(await modeOf(dir)).toBe(0o700);
    expect(await modeOf(join(root, 'new'))).toBe(0o700);
    ensurePrivateFile(join(dir, 'f'));
    expect(await modeOf(join(dir, 'f'))).toBe(0o600);
  });

  it('repairs a folder others can read, in one line, and refuses a shared folder without changing it', async () => {
    const open = join(root, 'open');
    await mkdir(open, { mode: 0o755 });
    await chmod(open, 0o755);
    expect(ensurePrivateFolder(open, 'data folder')).toBe(`The data folder ${open} could be read by other users of this computer (mode 755); Renderdrop made it private (700).`);
    expect(await modeOf(open)).toBe(0o700);
    const shared = join(root, 'shared');
    await mkdir(shared);
    await chmod(shared, 0o1777);
    expect(() => ensurePrivateFolder(shared, 'data folder')).toThrow(FolderNotPrivateError);
    expect(() => ensurePrivateFolder(shared, 'data folder')).toThrow(/mode 1777\) and Renderdrop does not change that \(it is a shared folder\)/);
    expect(await modeOf(shared)).toBe(0o1777);
  });

  it("keeps the node's database 0600 and its URL-signing secret in a 0600 file, moving one the database held", async () => {
    const data = join(root, 'node');
    const db = openDatabase(data);
    try {
      expect(await modeOf(data)).toBe(0o700);
      expect(await modeOf(join(data, 'node.sqlite'))).toBe(0o600);
      db.prepare("INSERT INTO meta (key, value) VALUES ('signing_secret', ?)").run('ab'.repeat(32));
      expect(loadSigningSecret(db, data).toString('hex')).toBe('ab'.repeat(32));
      expect(db.prepare("SELECT COUNT(*) AS n FROM meta WHERE key = 'signing_secret'").get()).toEqual({ n: 0 });
      expect(await modeOf(join(data, SIGNING_SECRET_FILE))).toBe(0o600);
      expect(loadSigningSecret(db, data).toString('hex')).toBe('ab'.repeat(32));
    } finally {
      db.close();
    }
  });

  it('makes a settings folder others can read private when the settings are opened', async () => {
    const config = join(root, 'config');
    await mkdir(config, { mode: 0o755 });
    await chmod(config, 0o755);
    await writeFile(join(config, 'config.json'), '{}');
    new SettingsStore({ configDir: config }).set({});
    expect(await modeOf(config)).toBe(0o700);
  });
});
