import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAddonSource } from '../../src/core/addon';
import { requireBlender } from '../helpers/blender';
import { runCli } from '../helpers/cli';
import { homeChanges, snapshotHome } from '../helpers/home-snapshot';

const blenderPath = requireBlender();

describe.skipIf(!blenderPath)('renderdrop addon install / uninstall / status (real Blender)', () => {
  let work: string;
  let env: NodeJS.ProcessEnv;
  let folder: string;
  const source = readAddonSource();
  const cli = (args: string[]) => runCli(['addon', ...args, '--blender', blenderPath!], { env, timeoutMs: 170_000 });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-cli-addon-'));
    env = { BLENDER_USER_SCRIPTS: join(work, 'scripts'), BLENDER_USER_CONFIG: join(work, 'config'), RENDERDROP_CONFIG_DIR: join(work, 'rd') };
    folder = join(work, 'scripts', 'addons', 'renderdrop_blender');
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('says the add-on is not installed, with the Blender it found', async () => {
    const status = await cli(['status']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`^Blender \\d+\\.\\d+\\.\\d+ \\(${blenderPath}\\): not installed\\. Folder: ${folder}\\n$`));
  });

  it('installs and enables it; installing twice is harmless', async () => {
    const first = await cli(['install']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toContain(`: installed (${source.version}), enabled. Folder: ${folder}`);
    const files = (await readdir(folder)).sort();
    expect(files).toEqual(['.renderdrop-install.json', ...source.files].sort());
    expect(await readdir(join(work, 'config'))).toContain('userpref.blend');

    const second = await cli(['install', '--json']);
    expect(second.code, second.stderr).toBe(0);
    const [row] = JSON.parse(second.stdout).blenders;
    expect(row).toMatchObject({ blender: { path: blenderPath, supported: true }, status: { state: 'installed', version: source.version, folder }, enabled: true, error: null });
    expect((await readdir(folder)).filter((f) => f !== '__pycache__').sort()).toEqual(files);

    const status = await cli(['status', '--json']);
    expect(JSON.parse(status.stdout).blenders[0].status.state).toBe('installed');
  });

  it('uninstalls only what it installed: files someone added and other add-ons stay', async () => {
    await writeFile(join(folder, 'my-notes.txt'), 'mine');
    const other = join(work, 'scripts', 'addons', 'other_addon');
    await mkdir(other, { recursive: true });
    await writeFile(join(other, '__init__.py'), 'bl_info = {"name": "Other", "blender": (3, 3, 0)}\n');

    const removed = await cli(['uninstall']);
    expect(removed.code, removed.stdout + removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`: not installed, not enabled. Folder: ${folder}`);
    expect(await readdir(folder)).toEqual(['my-notes.txt']);
    expect(await readdir(other)).toEqual(['__init__.py']);
    expect((await cli(['status'])).stdout).toContain(': not installed.');

    const again = await cli(['uninstall']);
    expect(again.code).toBe(0);
    expect(await readdir(other)).toEqual(['__init__.py']);
  });

  it('refuses a --blender that is not a Blender, in one line', async () => {
    const wrong = await runCli(['addon', 'install', '--blender', join(work, 'nothing-here')], { env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe(`renderdrop: ${join(work, 'nothing-here')} is not a Blender that answers \`--version\`. Give the Blender program, or the folder it is in.\n`);
  });
});

describe.skipIf(!blenderPath)('renderdrop addon install on a machine where Blender was used (real Blender)', () => {
  let work: string;
  const used = () => join(work, 'home');

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-cli-addon-used-'));
    await mkdir(used());
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** The person's own Blender set-up: preferences saved by Blender, then optionally the add-on installed and enabled there. */
  async function usedHome(withAddon: boolean): Promise<void> {
    const saved = await runCli(['addon', withAddon ? 'install' : 'status', '--blender', blenderPath!], { env: { HOME: used(), XDG_CONFIG_HOME: join(used(), '.config'), RENDERDROP_CONFIG_DIR: join(work, 'own-rd') } });
    expect(saved.code, saved.stdout + saved.stderr).toBe(0);
    if (!withAddon) {
      const prefs = spawnSync(blenderPath!, ['-b', '--factory-startup', '--python-expr', 'import bpy; bpy.ops.wm.save_userpref()'], { env: { ...process.env, HOME: used(), XDG_CONFIG_HOME: join(used(), '.config') }, encoding: 'utf8' });
      expect(prefs.status, prefs.stderr).toBe(0);
    }
    const own = snapshotHome(used());
    expect([...own.keys()].some((path) => path.endsWith(join('config', 'userpref.blend'))), [...own.keys()].join('\n')).toBe(true);
  }

  for (const withAddon of [false, true]) {
    it(`installs into the folders it is given and leaves the person's own Blender preferences byte for byte (add-on ${withAddon ? 'enabled' : 'absent'} there)`, async () => {
      await rm(used(), { recursive: true, force: true });
      await mkdir(used());
      await usedHome(withAddon);
      const before = snapshotHome(used());
      const given = join(work, withAddon ? 'given-with' : 'given-without');
      const env = { HOME: used(), XDG_CONFIG_HOME: join(used(), '.config'), BLENDER_USER_SCRIPTS: join(given, 'scripts'), BLENDER_USER_CONFIG: join(given, 'config'), RENDERDROP_CONFIG_DIR: join(given, 'rd') };
      const installed = await runCli(['addon', 'install', '--blender', blenderPath!], { env, timeoutMs: 170_000 });
      expect(installed.code, installed.stdout + installed.stderr).toBe(0);
      expect(installed.stdout).toContain(', enabled. Folder: ' + join(given, 'scripts', 'addons', 'renderdrop_blender'));
      expect(await readdir(join(given, 'config'))).toContain('userpref.blend');
      expect(homeChanges(before, snapshotHome(used()))).toEqual([]);
    });
  }
});
