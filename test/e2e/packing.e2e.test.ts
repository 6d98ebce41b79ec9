import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { requireBlender } from '../helpers/blender';
import { makePackingScene } from '../helpers/pack-corpus';
import { ProjectRoots } from '../../src/core/packing/project-roots';
import { ARTIFACTS, openApp, type AppUnderTest } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';

const blenderPath = requireBlender();
const ready = requireChromium() && blenderPath !== null;
const WIDTHS = [800, 1024, 1440];

/** Screenshots of the page at each width, named `<name>-<width>.png` in test-results/. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe.skipIf(!ready)('packing a scene in the app (browser mode, local node, real Blender)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let work: string;
  let scene: string;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await openApp(browser);
    page = app.page;
    work = await mkdtemp(join(tmpdir(), 'rd-e2e-pack-'));
    scene = (await makePackingScene(blenderPath!, work)).scene;
    // The scene uses //../shared/stamp.png: its project is `work`, as if chosen once before (a show's shared folder).
    await new ProjectRoots(app.dir).remember(scene, work);
    await mkdir(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await app?.close();
    await browser?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** Submits the scene by its path on this disk, as the desktop app does with a dropped file. */
  async function submit(): Promise<void> {
    const [result] = await app.host.handlers['submissions.submit']({ files: [{ path: scene }] });
    expect(result?.ok).toBe(true);
  }

  it('shows on the card what travels and what is missing by the artist\'s path, and Cancel sends nothing', async () => {
    await page.getByText('No jobs yet').waitFor({ timeout: 30_000 });
    await submit();
    const card = page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name: 'shot.blend' });
    const missing = card.getByRole('list', { name: 'Missing files of shot.blend' });
    await missing.waitFor({ timeout: 60_000 });
    expect(await card.getByText(/^3 files, .+ travel with the scene$/).count()).toBe(1);
    expect(await missing.getByRole('listitem').allTextContents()).toEqual([
      `${join(work, 'proj', 'textures', 'big.exr')}image “big”: not on this computer`,
      `${join(work, 'proj', 'textures', 'missing.png')}image “missing”: not on this computer`,
    ]);
    await shoot(page, 'packing-missing-files');
    await card.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => card.count(), { timeout: 30_000 }).toBe(0);
    expect((await app.host.handlers['jobs.list']({})).total).toBe(0);
  });

  it('continues without the missing files; the review lists only what is truly missing, by the artist\'s path', async () => {
    await submit();
    const card = page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name: 'shot.blend' });
    await card.getByRole('button', { name: 'Continue anyway' }).click({ timeout: 60_000 });
    const sheet = page.getByRole('dialog', { name: 'Review shot.blend' });
    await sheet.waitFor({ timeout: 120_000 });
    const warnings = sheet.getByRole('region', { name: 'Warnings' }).getByRole('listitem');
    await expect.poll(() => warnings.count()).toBeGreaterThan(0);
    const texts = await warnings.allTextContents();
    const advice = 'Put the file back at that path, or relink it in Blender (File > External Data > Find Missing Files) and save the scene.';
    expect(texts).toEqual([
      `The image "big" uses ${join(work, 'proj', 'textures', 'big.exr')}: not on this computer. The farm renders without it. ${advice}`,
      `The image "missing" uses ${join(work, 'proj', 'textures', 'missing.png')}: not on this computer. The farm renders without it. ${advice}`,
    ]);
    expect(texts.join(' ')).not.toMatch(/_external|grid\.png|stamp\.png|rd-e2e-[^p]/);
    await shoot(page, 'packing-review');
    await sheet.getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => sheet.count(), { timeout: 30_000 }).toBe(0);
  });
});
