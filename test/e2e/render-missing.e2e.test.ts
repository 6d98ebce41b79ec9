import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { decodePng } from '../helpers/png-pixels';
import { tempDir } from '../helpers/scene-files';
import { ARTIFACTS, openApp, type AppUnderTest } from './app-under-test';
import AxeBuilder from '@axe-core/playwright';
import { launchChromium, requireChromium } from './chromium';

const ready = requireChromium() && requireBlender() !== null;

/**
 * Screenshots of the page with `section` in view at the three widths artists use (notifications
 * dismissed), each checked for sideways scrolling.
 */
async function shootAtWidths(page: Page, section: Locator, name: string): Promise<void> {
  const dismiss = page.getByRole('button', { name: /^Dismiss: / });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  for (const [width, height] of [
    [800, 600],
    [1024, 640],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`) });
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), `no sideways scrolling at ${width} px`).toBe(true);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe.skipIf(!ready)('"Render missing frames" in Chromium (browser mode, local node, real Blender)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await openApp(browser, { localNodePort: 0 });
    page = app.page;
    await mkdir(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  it('renders the two frames deleted from the download folder again, equal to the originals pixel for pixel', async () => {
    const scene = await makeSampleScene(await tempDir('rd-e2e-missing-'), { frames: 4, missingTexture: false, name: 'missing-frames.blend' });
    await page.getByTestId('file-input').setInputFiles(scene);
    const sheet = page.getByRole('dialog', { name: /Review missing-frames\.blend/ });
    await sheet.waitFor({ timeout: 120_000 });
    await sheet.getByLabel('Samples').fill('2');
    await sheet.getByRole('button', { name: 'Start render' }).click();
    const rows = page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name: 'missing-frames.blend' });
    await rows.getByText('Downloaded').waitFor({ timeout: 180_000 });

    const [folderName] = await readdir(app.downloads);
    const folder = join(app.downloads, folderName!);
    const names = (await readdir(folder)).filter((n) => n.endsWith('.png')).sort();
    expect(names).toEqual(['sample_0001.png', 'sample_0002.png', 'sample_0003.png', 'sample_0004.png']);
    const originals = await Promise.all(names.map((n) => readFile(join(folder, n))));

    await rows.getByRole('button', { name: 'Details of missing-frames.blend' }).click();
    const detail = page.getByRole('complementary', { name: 'Job details' });
    const frames = detail.getByRole('region', { name: 'Frames in your folder' });
    await frames.getByText('All 4 frames are in your folder.').waitFor({ timeout: 30_000 });
    const button = frames.getByRole('button', { name: 'Render missing frames' });
    expect(await button.isDisabled()).toBe(true);
    await frames.getByText('Nothing is missing.').waitFor();

    await rm(join(folder, names[1]!));
    await rm(join(folder, names[2]!));
    await frames.getByRole('button', { name: 'Check again' }).click();
    await frames.getByText('2 of 4 frames are not in your folder (frames 2–3).').waitFor({ timeout: 30_000 });
    await frames.getByText('Frames 2–3 are still on the farm: “Download again” fetches them without rendering.').waitFor();
    await expect.poll(() => button.isDisabled()).toBe(false);
    await shootAtWidths(page, frames, 'render-missing-frames');
    const audit = await new AxeBuilder({ page }).include('.render-missing').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    const text = (await frames.textContent()) ?? '';
    expect(text).not.toMatch(/jobs\.|renderMissing|verify|frameRanges|\/tmp\//);

    await button.click();
    await frames.getByText('Rendering 2 frames again; they will be downloaded into your folder.').waitFor({ timeout: 30_000 });
    await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(2);
    await expect.poll(async () => (await readdir(folder)).filter((n) => n.endsWith('.png')).sort(), { timeout: 180_000, interval: 500 }).toEqual(names);
    await expect.poll(() => rows.getByText('Downloaded').count(), { timeout: 60_000 }).toBe(2);
    for (const [i, name] of names.entries()) {
      expect(decodePng(await readFile(join(folder, name))).data.equals(decodePng(originals[i]!).data), name).toBe(true);
    }
    // The panel follows the frames into the folder by itself: no stale "Rendering 2 frames again", and
    // the output files say the same as the folder check.
    await frames.getByText('All 4 frames are in your folder.').waitFor({ timeout: 30_000 });
    expect(await frames.textContent()).not.toMatch(/Rendering 2 frames again/);
    await detail.getByRole('region', { name: 'Output files' }).getByText('4 of 4 files on this computer.').waitFor({ timeout: 30_000 });
    await frames.getByRole('button', { name: 'Check again' }).click();
    await frames.getByText('All 4 frames are in your folder.').waitFor({ timeout: 30_000 });
    await shootAtWidths(page, frames, 'render-missing-frames-complete');
  });
});
