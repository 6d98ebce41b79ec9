import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfigDir } from '../../src/core/settings/json-settings-file';
import { userAddonsDir } from '../../src/core/addon/user-addons-dir';
import { homeChanges, snapshotHome } from './home-snapshot';
import setup from './isolated-home';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function fakeHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'rd-fake-home-'));
  made.push(home);
  await mkdir(join(home, '.config', 'blender', '3.4', 'config'), { recursive: true });
  await writeFile(join(home, '.config', 'blender', '3.4', 'config', 'userpref.blend'), 'prefs');
  await mkdir(join(home, '.local', 'share', 'keyrings'), { recursive: true });
  await writeFile(join(home, '.local', 'share', 'keyrings', 'login.keyring'), 'secret');
  await writeFile(join(home, '.bashrc'), 'alias x=y');
  return home;
}

describe('the test run’s own home', () => {
  it('is where every test’s home, settings and Blender add-ons point, not the real home', () => {
    const real = process.env.RENDERDROP_TEST_REAL_HOME;
    expect(real).toBeTruthy();
    expect(homedir()).not.toBe(real);
    expect(homedir()).toMatch(/renderdrop-test-home-/);
    expect(defaultConfigDir('renderdrop').startsWith(homedir())).toBe(true);
    expect(userAddonsDir('3.4', { platform: 'linux', env: process.env, home: homedir() }).startsWith(homedir())).toBe(true);
    expect(process.env.DBUS_SESSION_BUS_ADDRESS).toBe(`unix:path=${join(homedir(), '.run', 'no-session-bus')}`);
  });
});

describe('comparing a home before and after', () => {
  it('sees nothing when nothing changed', async () => {
    const home = await fakeHome();
    expect(homeChanges(snapshotHome(home), snapshotHome(home))).toEqual([]);
  });

  it('names Blender preferences rewritten with the same size, a keyring added to, a new settings folder and a new top-level entry', async () => {
    const home = await fakeHome();
    const before = snapshotHome(home);
    await writeFile(join(home, '.config', 'blender', '3.4', 'config', 'userpref.blend'), 'PREFS');
    await writeFile(join(home, '.local', 'share', 'keyrings', 'login.keyring'), 'secret+entry');
    await mkdir(join(home, '.config', 'renderdrop'));
    await writeFile(join(home, '.config', 'renderdrop', 'config.json'), '{}');
    await writeFile(join(home, 'stray.txt'), '');
    expect(homeChanges(before, snapshotHome(home))).toEqual([
      '.config/blender/3.4/config/userpref.blend changed',
      '.config/renderdrop added',
      '.config/renderdrop/config.json added',
      '.local/share/keyrings/login.keyring changed',
      'stray.txt added',
    ]);
  });

  it('names a removed add-on and a preferences file replaced by a link', async () => {
    const home = await fakeHome();
    const addon = join(home, '.config', 'blender', '3.4', 'scripts', 'addons', 'renderdrop_blender');
    await mkdir(addon, { recursive: true });
    await writeFile(join(addon, '__init__.py'), '');
    const before = snapshotHome(home);
    await rm(join(home, '.config', 'blender', '3.4', 'scripts'), { recursive: true });
    const prefs = join(home, '.config', 'blender', '3.4', 'config', 'userpref.blend');
    await rm(prefs);
    await symlink('/etc/hostname', prefs);
    expect(homeChanges(before, snapshotHome(home))).toEqual([
      '.config/blender/3.4/config/userpref.blend changed',
      '.config/blender/3.4/scripts removed',
      '.config/blender/3.4/scripts/addons removed',
      '.config/blender/3.4/scripts/addons/renderdrop_blender removed',
      '.config/blender/3.4/scripts/addons/renderdrop_blender/__init__.py removed',
    ]);
  });

  it('fails the run at teardown when the real home changed, and leaves the environment as it found it', async () => {
    const home = await fakeHome();
    const saved = { ...process.env };
    process.env.HOME = home;
    try {
      const teardown = setup();
      expect(process.env.HOME).not.toBe(home);
      expect(process.env.RENDERDROP_TEST_REAL_HOME).toBe(home);
      await writeFile(join(home, '.config', 'blender', '3.4', 'config', 'userpref.blend'), 'rewritten');
      expect(() => teardown()).toThrow(`The tests changed the real home folder ${home}: .config/blender/3.4/config/userpref.blend changed.`);
      expect(process.env.HOME).toBe(home);
      expect(process.env.XDG_CONFIG_HOME).toBe(saved.XDG_CONFIG_HOME);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });
});
