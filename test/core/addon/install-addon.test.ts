import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AddonInstallError, addonStatus, installAddon, MANIFEST_NAME, readAddonSource, refuseAddonLinks, uninstallAddon, type BlenderInstall } from '../../../src/core/addon';

describe('installing the add-on into a Blender user folder', () => {
  let root: string;
  let blender: BlenderInstall;
  const folder = () => join(blender.addonsDir, 'renderdrop_blender');

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'rd-addon-install-'));
    blender = { path: '/usr/bin/blender', version: '3.6.5', series: '3.6', origin: 'PATH', addonsDir: join(root, 'scripts', 'addons'), supported: true };
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('copies the shipped add-on with a manifest of its files, and installing twice changes nothing else', async () => {
    const source = readAddonSource();
    expect(source.files).toContain('__init__.py');
    expect(await addonStatus(blender)).toMatchObject({ state: 'not-installed', installedVersion: null });
    const first = await installAddon(blender, { cli: ['/usr/bin/node', '/opt/renderdrop/bin/renderdrop.js'] });
    expect(first).toMatchObject({ state: 'installed', installedVersion: source.version, folder: folder() });
    const listed = (await readdir(folder())).sort();
    expect(listed).toEqual([MANIFEST_NAME, ...source.files].sort());
    for (const file of source.files) expect(await readFile(join(folder(), file), 'utf8')).toBe(await readFile(join(source.dir, file), 'utf8'));
    const manifest = JSON.parse(await readFile(join(folder(), MANIFEST_NAME), 'utf8'));
    expect(manifest).toMatchObject({ product: 'renderdrop', version: source.version, cli: ['/usr/bin/node', '/opt/renderdrop/bin/renderdrop.js'] });
    expect(manifest.files.map((f: { path: string }) => f.path)).toEqual(source.files);

    expect(await installAddon(blender)).toMatchObject({ state: 'installed' });
    expect((await readdir(folder())).sort()).toEqual(listed);
  });

  it('says when files were changed since, and when another version is installed', async () => {
    await installAddon(blender);
    await writeFile(join(folder(), 'ui.py'), '# edited\n');
    expect((await addonStatus(blender)).state).toBe('modified');
    await installAddon(blender);
    const manifestPath = join(folder(), MANIFEST_NAME);
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
    await writeFile(manifestPath, JSON.stringify({ ...manifest, version: '0.0.1' }));
    expect(await addonStatus(blender)).toMatchObject({ state: 'outdated', installedVersion: '0.0.1' });
  });

  it('uninstalls only what it installed: other files and other add-ons stay', async () => {
    await installAddon(blender);
    await writeFile(join(folder(), 'notes.txt'), 'mine');
    await mkdir(join(folder(), '__pycache__'));
    await writeFile(join(folder(), '__pycache__', 'ui.cpython-310.pyc'), 'cache');
    await writeFile(join(folder(), '__pycache__', 'other.cpython-310.pyc'), 'not ours');
    await mkdir(join(blender.addonsDir, 'someone_else'));
    await writeFile(join(blender.addonsDir, 'someone_else', '__init__.py'), 'bl_info = {}');

    expect((await uninstallAddon(blender)).state).toBe('not-installed');
    expect((await readdir(folder())).sort()).toEqual(['__pycache__', 'notes.txt']);
    expect(await readdir(join(folder(), '__pycache__'))).toEqual(['other.cpython-310.pyc']);
    expect(await readdir(join(blender.addonsDir, 'someone_else'))).toEqual(['__init__.py']);
  });

  it('removes its folder when nothing else is in it, and keeps a file the person changed', async () => {
    await installAddon(blender);
    await uninstallAddon(blender);
    expect(await readdir(blender.addonsDir)).toEqual([]);
    expect((await addonStatus(blender)).state).toBe('not-installed');

    await installAddon(blender);
    await writeFile(join(folder(), 'cli.py'), '# my fix\n');
    await uninstallAddon(blender);
    expect(await readdir(folder())).toEqual(['cli.py']);
  });

  it('leaves a folder of that name it did not install alone, and refuses Blender older than 3.3', async () => {
    await mkdir(folder(), { recursive: true });
    await writeFile(join(folder(), '__init__.py'), '# hand-made');
    await expect(installAddon(blender)).rejects.toThrow(AddonInstallError);
    expect(await readFile(join(folder(), '__init__.py'), 'utf8')).toBe('# hand-made');
    await expect(installAddon({ ...blender, version: '3.2.0', series: '3.2', supported: false })).rejects.toThrow(/needs Blender 3\.3 or newer/);
  });

  it('refuses a symbolic link planted in the add-on folder, naming it, and changes nothing outside the folder', async () => {
    const outside = join(root, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'keep.txt'), 'mine');
    await mkdir(blender.addonsDir, { recursive: true });
    await symlink(outside, folder());
    await expect(installAddon(blender)).rejects.toThrow(`${folder()} is a symbolic link`);
    expect(await readdir(outside)).toEqual(['keep.txt']);
    await rm(folder());

    await installAddon(blender);
    const source = readAddonSource();
    const victim = join(outside, 'ui.py');
    await writeFile(victim, await readFile(join(source.dir, 'ui.py')));
    await rm(join(folder(), 'ui.py'));
    await symlink(victim, join(folder(), 'ui.py'));
    await expect(installAddon(blender)).rejects.toThrow(`${join(folder(), 'ui.py')} is a symbolic link`);
    await expect(uninstallAddon(blender)).rejects.toThrow(AddonInstallError);
    await expect(refuseAddonLinks(blender)).rejects.toThrow(/ui\.py is a symbolic link/);
    await rm(join(folder(), 'ui.py'));

    await writeFile(join(outside, 'ui.cpython-310.pyc'), 'not the add-on\'s');
    await symlink(outside, join(folder(), '__pycache__'));
    await expect(uninstallAddon(blender)).rejects.toThrow(`${join(folder(), '__pycache__')} is a symbolic link`);
    expect((await readdir(outside)).sort()).toEqual(['keep.txt', 'ui.cpython-310.pyc', 'ui.py']);
    expect(await readFile(victim, 'utf8')).toBe(await readFile(join(source.dir, 'ui.py'), 'utf8'));
  });

  it('never deletes a file its manifest names outside the add-on folder', async () => {
    await installAddon(blender);
    const outside = join(root, 'victim.py');
    await writeFile(outside, 'print(1)\n');
    const manifestPath = join(folder(), MANIFEST_NAME);
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
    const sha256 = createHash('sha256').update('print(1)\n').digest('hex');
    await writeFile(manifestPath, JSON.stringify({ ...manifest, files: [...manifest.files, { path: '../../../victim.py', sha256 }] }));
    await uninstallAddon(blender);
    expect(await readFile(outside, 'utf8')).toBe('print(1)\n');
  });
});

