import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathInHome } from '../../../src/host/files/home-paths';
import { homeConfinedHandlers } from '../../../src/host/files/page-handlers';
import type { ContractHandlers } from '../../../src/shared/contract';
import { tempDir } from '../../helpers/scene-files';

let base: string;
let home: string;
let outside: string;

beforeAll(async () => {
  base = await realpath(await tempDir('rd-home-paths-'));
  home = join(base, 'home');
  outside = join(base, 'elsewhere');
  await mkdir(join(home, 'Projects'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(join(home, 'Projects', 'shot.blend'), 'BLENDER-v300');
  await writeFile(join(outside, 'secret.blend'), 'BLENDER-v300');
  await symlink(outside, join(home, 'Projects', 'escape'));
  await symlink(join(outside, 'secret.blend'), join(home, 'Projects', 'secret-link.blend'));
  await symlink(join(home, 'Projects', 'shot.blend'), join(home, 'Projects', 'inside-link.blend'));
  await symlink(join(base, 'nowhere', 'gone.blend'), join(home, 'Projects', 'dangling.blend'));
  await symlink(join(home, 'Projects', 'loop-b'), join(home, 'Projects', 'loop-a'));
  await symlink(join(home, 'Projects', 'loop-a'), join(home, 'Projects', 'loop-b'));
  await symlink(home, join(base, 'home-link'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const refusal = { code: 'outside-home', kind: 'not-found' };

describe('pathInHome: a path the browser page names must lead into home', () => {
  it('answers the absolute path of a file in home, given absolute or relative to home', async () => {
    expect(await pathInHome(home, join(home, 'Projects', 'shot.blend'), 'scene')).toBe(join(home, 'Projects', 'shot.blend'));
    expect(await pathInHome(home, 'Projects/shot.blend', 'scene')).toBe(join(home, 'Projects', 'shot.blend'));
    expect(await pathInHome(home, 'Projects/inside-link.blend', 'scene')).toBe(join(home, 'Projects', 'inside-link.blend'));
    expect(await pathInHome(home, join(home, 'Projects', 'escape', '..', 'shot.blend'), 'scene')).toBe(join(home, 'Projects', 'shot.blend'));
  });

  it('takes a folder that does not exist yet when it would be made inside home', async () => {
    expect(await pathInHome(home, join(home, 'Renders', 'shot 1'), 'download-folder')).toBe(join(home, 'Renders', 'shot 1'));
  });

  it('accepts home reached through a symlink to it', async () => {
    expect(await pathInHome(join(base, 'home-link'), join(base, 'home-link', 'Projects', 'shot.blend'), 'scene')).toBe(join(base, 'home-link', 'Projects', 'shot.blend'));
  });

  it('refuses a path outside home, directly or through `..`', async () => {
    for (const path of [join(outside, 'secret.blend'), '/etc/passwd', '..', '../elsewhere/secret.blend', 'Projects/../../elsewhere/secret.blend', '/']) {
      await expect(pathInHome(home, path, 'scene'), path).rejects.toMatchObject({ ...refusal, message: 'Only scenes in your home folder can be opened here.' });
    }
  });

  it('refuses a symlink in home that leads outside it, and a folder that would be made through one', async () => {
    await expect(pathInHome(home, 'Projects/secret-link.blend', 'scene')).rejects.toMatchObject(refusal);
    await expect(pathInHome(home, 'Projects/escape/secret.blend', 'scene')).rejects.toMatchObject(refusal);
    await expect(pathInHome(home, join(home, 'Projects', 'escape', 'new', 'frames'), 'download-folder')).rejects.toMatchObject({
      ...refusal,
      message: 'Choose a download folder inside your home folder.',
    });
  });

  it('refuses a link that cannot be followed (dangling, or a loop)', async () => {
    await expect(pathInHome(home, 'Projects/dangling.blend', 'scene')).rejects.toMatchObject(refusal);
    await expect(pathInHome(home, 'Projects/dangling.blend/sub', 'download-folder')).rejects.toMatchObject(refusal);
    await expect(pathInHome(home, 'Projects/loop-a', 'download-folder')).rejects.toMatchObject(refusal);
  });
});

describe('homeConfinedHandlers: the handlers browser mode serves its page', () => {
  function recording(): { handlers: ContractHandlers; seen: unknown[] } {
    const seen: unknown[] = [];
    const handlers = {
      'submissions.submit': async (request: unknown) => {
        seen.push(request);
        return [];
      },
      'settings.update': async (request: unknown) => {
        seen.push(request);
        return {};
      },
      'app.getState': async (request: unknown) => {
        seen.push(request);
        return {};
      },
    } as unknown as ContractHandlers;
    return { handlers, seen };
  }

  it('hands the host only paths in home, made absolute', async () => {
    const { handlers, seen } = recording();
    const page = homeConfinedHandlers(handlers, home);
    await page['submissions.submit']({ files: [{ path: 'Projects/shot.blend' }, { token: 'upload-1' }] });
    await page['settings.update']({ downloadDir: 'Renders' });
    await page['settings.update']({ downloadDir: null, autoDownload: false });
    expect(seen).toEqual([
      { files: [{ path: join(home, 'Projects', 'shot.blend') }, { token: 'upload-1' }] },
      { downloadDir: join(home, 'Renders') },
      { downloadDir: null, autoDownload: false },
    ]);
    expect(page['app.getState']).toBe(handlers['app.getState']);
  });

  it('refuses the whole call when any path leads outside home, before the host sees it', async () => {
    const { handlers, seen } = recording();
    const page = homeConfinedHandlers(handlers, home);
    await expect(page['submissions.submit']({ files: [{ path: 'Projects/shot.blend' }, { path: join(outside, 'secret.blend') }] })).rejects.toMatchObject(refusal);
    await expect(page['submissions.submit']({ files: [{ path: 'Projects/escape/secret.blend' }] })).rejects.toMatchObject(refusal);
    await expect(page['settings.update']({ downloadDir: '/tmp' })).rejects.toMatchObject(refusal);
    expect(seen).toEqual([]);
  });
});
