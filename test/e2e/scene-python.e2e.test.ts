import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBlender } from '../helpers/blender';
import { makePythonScenes, type PythonScenes } from '../helpers/python-scenes';
import { tempDir } from '../helpers/scene-files';
import { seriousAxeProblems } from './axe-audit';
import { ARTIFACTS, SCREEN_SIZES, dropFiles, openApp, type AppUnderTest } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';

const blenderPath = requireBlender();
const ready = requireChromium() && blenderPath !== null;
const HORIZONTAL_OVERFLOW = `document.documentElement.scrollWidth - document.documentElement.clientWidth`;

/** At 800, 1024 and 1440 px wide: no sideways scrolling, no serious axe problem in `include`, a screenshot. */
async function lookAtEverySize(page: Page, name: string, include: string, show: Locator): Promise<void> {
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    await show.scrollIntoViewIfNeeded();
    expect(await page.evaluate(HORIZONTAL_OVERFLOW), `${name} scrolls sideways at ${size.width} px`).toBeLessThanOrEqual(0);
    expect(await seriousAxeProblems(page, { include }), `${name} at ${size.width} px`).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${size.width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe.skipIf(!ready)('scene Python in the review, and a render that completed with Blender errors (browser mode, local node, real Blender)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let scenes: PythonScenes;

  beforeAll(async () => {
    scenes = await makePythonScenes(blenderPath!, await tempDir('rd-e2e-python-'));
    await mkdir(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
    app = await openApp(browser);
    page = app.page;
    await page.getByRole('button', { name: 'Add files…' }).waitFor({ timeout: 30_000 });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  it('the review names the Python driver and the text block; the row of the render shows ⚠ and Blender\'s first error', async () => {
    await dropFiles(page, [{ name: 'wobble.blend', bytes: await readFile(scenes.wobble) }]);
    const sheet = page.getByRole('dialog', { name: 'Review wobble.blend' });
    await sheet.waitFor({ timeout: 120_000 });
    const warnings = sheet.getByRole('region', { name: 'Warnings' }).getByRole('listitem');
    await warnings.first().waitFor({ timeout: 60_000 });
    expect(await warnings.allTextContents()).toEqual([
      'Driver on Cube › Location Z uses Python (wobble(frame)): this farm does not run scene Python, so the driver gives 0 here, not what it gives in your Blender.',
      'Text rig_wobble.py runs as a module in your Blender, not here: this farm does not run scene Python, so what it sets up (functions for drivers, handlers) is missing.',
    ]);
    expect(await warnings.locator('code').allTextContents()).toEqual(['wobble(frame)', 'rig_wobble.py']);
    await lookAtEverySize(page, 'python-review', '[role="dialog"]', sheet.getByRole('region', { name: 'Warnings' }));

    await sheet.getByLabel('Frames').fill('1');
    await sheet.getByRole('button', { name: 'Start render' }).click();
    const row = page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name: 'wobble.blend' });
    await row.getByText('Downloaded').waitFor({ timeout: 180_000 });
    await row.getByText('Blender reported: Error in PyDriver: expression failed: wobble(frame)').waitFor();
    expect(await row.getByRole('img', { name: /^Warnings: / }).getAttribute('aria-label')).toBe('Warnings: scene Python not run, Blender reported errors');
    await lookAtEverySize(page, 'python-row-completed-with-errors', '[role="list"][aria-label="Render queue"]', row);

    await row.getByRole('button', { name: 'Details of wobble.blend' }).click();
    const detail = page.getByRole('complementary', { name: 'Job details' });
    const listed = detail.getByRole('list', { name: 'Warnings' }).getByRole('listitem');
    await listed.first().waitFor({ timeout: 30_000 });
    const texts = await listed.allTextContents();
    expect(texts).toHaveLength(3);
    expect(texts[2]).toContain('Blender reported an error while rendering: “Error in PyDriver: expression failed: wobble(frame)”.');
  }, 360_000);
});
