import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppPreferences } from '../../../src/host/environment/app-preferences';
import { fileHandlers } from '../../../src/host/files/file-handlers';
import { compareEntries, fileKind, isInside, listFolder } from '../../../src/host/files/folder-listing';
import { tempDir } from '../../helpers/scene-files';

let base: string;
let home: string;
let outside: string;

beforeAll(async () => {
  base = await realpath(await tempDir('rd-files-'));
  home = join(base, 'home');
  outside = join(base, 'elsewhere');
  await mkdir(join(home, 'Projects', 'shot 10'), { recursive: true });
  await mkdir(join(home, 'Projects', 'shot 9'), { recursive: true });
  await mkdir(join(home, '.cache'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, 'secret.blend'), 'BLENDER-v300');
  await writeFile(join(home, 'Projects', 'Scene.blend'), 'BLENDER-v300');
  await writeFile(join(home, 'Projects', 'a.zip'), 'PK');
  await writeFile(join(home, 'Projects', 'notes.txt'), 'hello');
  await writeFile(join(home, 'Projects', '.hidden.blend'), 'BLENDER-v300');
  await symlink(outside, join(home, 'Projects', 'escape'));
  await symlink(join(outside, 'secret.blend'), join(home, 'Projects', 'secret-link.blend'));
  await symlink(join(home, 'Projects', 'Scene.blend'), join(home, 'Projects', 'inside-link.blend'));
  await symlink(outside, join(home, 'out'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('the file browser lists folders under home only', () => {
  it('lists folders first, then files, by name as people sort them, with kinds, sizes and dates; hidden files hidden', async () => {
    const folder = await listFolder({ home, path: 'Projects' });
    expect(folder.entries.map((e) => [e.name, e.kind])).toEqual([
      ['shot 9', 'folder'],
      ['shot 10', 'folder'],
      ['a.zip', 'zip'],
      ['inside-link.blend', 'blend'],
      ['notes.txt', 'other'],
      ['Scene.blend', 'blend'],
    ]);
    const scene = folder.entries.find((e) => e.name === 'Scene.blend')!;
    expect(scene).toMatchObject({ size: 12, path: join(home, 'Projects', 'Scene.blend') });
    expect(Number.isNaN(Date.parse(scene.modified!))).toBe(false);
    expect(folder.entries[0]!.size).toBeNull();
    expect(folder.crumbs).toEqual([
      { name: 'Home', path: home },
      { name: 'Projects', path: join(home, 'Projects') },
    ]);
    expect(folder.parent).toBe(home);
    expect(folder.truncated).toBe(false);
    const withHidden = await listFolder({ home, path: join(home, 'Projects'), hidden: true });
    expect(withHidden.entries.map((e) => e.name)).toContain('.hidden.blend');
    const top = await listFolder({ home });
    expect(top.entries.map((e) => e.name)).toEqual(['Projects']);
    expect(top.parent).toBeNull();
  });

  it('never lists anything outside home: symlinks that escape are left out, `..` and escaping folders are refused', async () => {
    const folder = await listFolder({ home, path: 'Projects', hidden: true });
    const names = folder.entries.map((e) => e.name);
    expect(names).not.toContain('escape');
    expect(names).not.toContain('secret-link.blend');
    expect(JSON.stringify(folder)).not.toContain(outside);
    for (const path of ['..', '../elsewhere', 'Projects/../../elsewhere', outside, 'out', 'Projects/escape', '/', join(home, '..')]) {
      await expect(listFolder({ home, path }), path).rejects.toMatchObject({ code: 'outside-home' });
    }
    await expect(listFolder({ home, path: 'Projects/Scene.blend' })).rejects.toMatchObject({ code: 'not-a-folder' });
    await expect(listFolder({ home, path: 'nowhere' })).rejects.toMatchObject({ code: 'no-folder' });
    expect((await listFolder({ home, path: 'Projects/shot 9/..' })).path).toBe(join(home, 'Projects'));
  });

  it('tells inside from outside by whole folder names', () => {
    expect(isInside('/home/a', '/home/a')).toBe(true);
    expect(isInside('/home/a', '/home/a/..b')).toBe(true);
    expect(isInside('/home/a', '/home/ab')).toBe(false);
    expect(isInside('/home/a', '/home')).toBe(false);
    expect(fileKind('X.BLEND', false)).toBe('blend');
    expect(fileKind('x.blend1', false)).toBe('other');
    expect(fileKind('x.zip', true)).toBe('folder');
    expect(compareEntries({ name: 'b', kind: 'folder' }, { name: 'a', kind: 'blend' })).toBeLessThan(0);
  });
});

describe('files.list', () => {
  it('opens the last folder listed next time (kept in the app preferences), home when it is gone', async () => {
    const config = join(base, 'config');
    const first = fileHandlers({ home, prefs: new AppPreferences(config) });
    expect((await first['files.list']({})).path).toBe(home);
    await first['files.list']({ path: join(home, 'Projects', 'shot 9') });
    const again = fileHandlers({ home, prefs: new AppPreferences(config) });
    expect((await again['files.list']({})).path).toBe(join(home, 'Projects', 'shot 9'));
    await rm(join(home, 'Projects', 'shot 9'), { recursive: true });
    expect((await again['files.list']({})).path).toBe(home);
  });
});
