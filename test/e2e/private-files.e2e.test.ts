import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { writeTree } from '../blend/helpers/scene-folder';
import { SyntheticBlend } from '../blend/helpers/synthetic-blend';
import { requireBlender } from '../helpers/blender';
import { ARTIFACTS, openApp, type AppUnderTest } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';

const ready = requireChromium() && requireBlender() !== null;

/** Screenshots of a card at 800, 1024 and 1440 px wide (`<name>-<width>.png` in test-results/), none scrolling sideways. */
async function shoot(page: Page, card: Locator, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  for (const width of [800, 1024, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    await card.scrollIntoViewIfNeeded();
    expect(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'), `no sideways scroll at ${width}`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe.skipIf(!ready)('files held at the edge of the project (browser mode)', () => {
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
    const list = card.getByRole('list', { name: 'Held files of shot.blend' });
    await list.waitFor({ timeout: 60_000 });
    expect(await list.getByRole('listitem').allTextContents()).toEqual([
      '/etcpasswdimage “Users”: outside the project, in /etc, a system folder',
      `${dirname(key)}id_ed25519image “Key”: outside the project, in .ssh, a folder of keys, passwords, settings or a browser's profile`,
    ]);
    expect(await card.getByText(`These files are outside the project (${dirname(scene)}), or are files Renderdrop never sends unasked. They are left out unless you send them.`).count()).toBe(1);
    expect(await card.getByRole('button', { name: /as the project/ }).count(), 'no project is offered around secret places').toBe(0);
    expect(await card.getByRole('list', { name: 'Missing files of shot.blend' }).count()).toBe(0);
    expect(await card.locator('.badge').textContent()).toBe('Needs a choice');
    expect(await card.getByRole('button', { name: 'Continue anyway' }).count()).toBe(0);
    await shoot(page, card, 'held-files');
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

  it('offers the show around a shot whose assets sit beside its folder, and "Use show as the project" sends them', async () => {
    const blend = new SyntheticBlend();
    blend.addImage({ name: 'Wall', path: '//../../assets/wall.png' });
    await writeTree(work, { 'show/shots/sh010/sh010.blend': blend.build(), 'show/assets/wall.png': 'png' });
    const [result] = await app.host.handlers['submissions.submit']({ files: [{ path: join(work, 'show', 'shots', 'sh010', 'sh010.blend') }] });
    expect(result?.ok).toBe(true);
    const card = page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name: 'sh010.blend' });
    const use = card.getByRole('button', { name: 'Use show as the project' });
    await use.waitFor({ timeout: 60_000 });
    await shoot(page, card, 'held-files-project');
    await use.click();
    await expect
      .poll(async () => {
        const view = (await app.host.handlers['submissions.list']({})).find((v) => v.fileName === 'sh010.blend');
        return view ? [view.phase !== 'packing' && view.phase !== 'missing-files', view.packing?.files] : null;
      }, { timeout: 60_000 })
      .toEqual([true, 2]);
  });
});
