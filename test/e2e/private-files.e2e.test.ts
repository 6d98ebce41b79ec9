import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { writeTree } from '../blend/helpers/scene-folder';
import { SyntheticBlend } from '../blend/helpers/synthetic-blend';
import { requireBlender } from '../helpers/blender';
import { openApp, type AppUnderTest } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';

const ready = requireChromium() && requireBlender() !== null;

describe.skipIf(!ready)('files outside the scene\'s folder that look private (browser mode)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let work: string;
  let scene: string;
  let key: string;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await openApp(browser);
    page = app.page;
    work = await mkdtemp(join(tmpdir(), 'rd-e2e-private-'));
    key = join(work, 'home', '.ssh', 'id_ed25519');
    const blend = new SyntheticBlend();
    blend.addImage({ name: 'Grid', path: '//textures/grid.png' });
    blend.addImage({ name: 'Users', path: '/etc/passwd' });
    blend.addImage({ name: 'Key', path: key });
    await writeTree(work, { 'proj/shot.blend': blend.build(), 'proj/textures/grid.png': 'png', 'home/.ssh/id_ed25519': 'fake key' });
    scene = join(work, 'proj', 'shot.blend');
  });
  afterAll(async () => {
    await app?.close();
    await browser?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('lists them apart on the held card, with "Leave them out" first; choosing it sends the scene without them', async () => {
    await page.getByText('No jobs yet').waitFor({ timeout: 30_000 });
    const [result] = await app.host.handlers['submissions.submit']({ files: [{ path: scene }] });
    expect(result?.ok).toBe(true);
    const card = page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name: 'shot.blend' });
    const list = card.getByRole('list', { name: 'Private-looking files of shot.blend' });
    await list.waitFor({ timeout: 60_000 });
    expect(await list.getByRole('listitem').allTextContents()).toEqual(['/etc/passwdimage “Users”: in /etc, a system folder', `${key}image “Key”: in .ssh, a folder of keys, passwords or settings`]);
    expect(await card.getByText('These files sit outside the scene’s folder and look private. They are left out unless you send them.').count()).toBe(1);
    expect(await card.getByRole('list', { name: 'Missing files of shot.blend' }).count()).toBe(0);
    expect(await card.locator('.badge').textContent()).toBe('Needs a choice');
    expect(await card.getByRole('button', { name: 'Continue anyway' }).count()).toBe(0);
    const buttons = await card.getByRole('button').allTextContents();
    expect(buttons.indexOf('Leave them out')).toBeLessThan(buttons.indexOf('Send them anyway'));
    await card.getByRole('button', { name: 'Leave them out' }).click();
    await expect.poll(() => list.count(), { timeout: 30_000 }).toBe(0);
    await expect
      .poll(async () => {
        const [view] = await app.host.handlers['submissions.list']({});
        return view ? [view.phase !== 'packing' && view.phase !== 'missing-files', view.packing?.files, view.packing?.privateFiles?.map((f) => f.allowed)] : null;
      }, { timeout: 60_000 })
      .toEqual([true, 2, [false, false]]);
  });
});
