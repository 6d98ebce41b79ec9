import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { requireBlenderSeries } from '../helpers/blenders';
import { requireRedis } from '../helpers/redis';
import { tempDir } from '../helpers/scene-files';
import { seriousAxeProblems } from './axe-audit';
import { openAppOnWorkers, type AppOnWorkers } from './app-on-workers';
import { dropFiles } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';

const blender34 = requireBlender();
const blender43 = requireBlenderSeries('4.3');
const redisServer = requireRedis();
const ready = requireChromium() && blender34 !== null && blender43 !== null && redisServer !== null;
/** Where the screenshots of this test go, to be looked at. */
const SHOTS = process.env.RENDERDROP_SHOTS_DIR ?? join(process.env.TMPDIR ?? '/tmp', 'renderdrop-blender-choice');
const HORIZONTAL_OVERFLOW = `document.documentElement.scrollWidth - document.documentElement.clientWidth`;

describe.skipIf(!ready)('the review offers the Blender versions of a farm of a 3.4 and a 4.3 render worker', () => {
  let browser: Browser;
  let onWorkers: AppOnWorkers | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
    await mkdir(SHOTS, { recursive: true });
    onWorkers = await openAppOnWorkers(browser, { blender: blender34!, secondBlender: blender43!, redisServer: redisServer! }, 'rd-e2e-blender-choice-');
  }, 120_000);
  afterAll(async () => {
    await onWorkers?.close();
    await browser?.close();
  });

  it('shows a "Blender" select defaulting to the farm\'s choice, and renders with the version picked', async () => {
    const { page, host } = onWorkers!.app;
    const farm = async () => (await host.handlers['app.renderWorkers']({}))?.blenderVersions ?? [];
    await expect.poll(async () => (await farm()).length, { timeout: 30_000 }).toBe(2);
    const [v34, v43] = await farm();

    const scene = await makeSampleScene(await tempDir('rd-e2e-blender-pick-'), { missingTexture: false, frames: 1, name: 'pick.blend' });
    await dropFiles(page, [{ name: 'pick.blend', bytes: await readFile(scene) }]);
    const sheet = page.getByRole('dialog', { name: 'Review pick.blend' });
    await sheet.waitFor({ timeout: 120_000 });
    const select = sheet.getByLabel('Blender', { exact: true });
    await select.waitFor({ timeout: 60_000 });
    expect(await select.locator('option').allInnerTexts()).toEqual([`Farm's choice (${v34})`, v34, v43]);
    expect(await select.inputValue()).toBe('');
    expect(await select.locator('option:checked').innerText()).toBe(`Farm's choice (${v34})`);

    for (const width of [800, 1024, 1440]) {
      await page.setViewportSize({ width, height: width === 800 ? 600 : 900 });
      await page.waitForTimeout(150);
      await select.scrollIntoViewIfNeeded();
      expect(await page.evaluate(HORIZONTAL_OVERFLOW), `the review scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(SHOTS, `review-blender-${width}.png`) });
    }
    expect(await seriousAxeProblems(page, { include: '[role="dialog"]' })).toEqual([]);

    await select.selectOption(v43!);
    await sheet.getByRole('button', { name: /^Start render/ }).click();
    const jobIdOf = async () => (await host.handlers['submissions.list']({})).find((s) => s.fileName === 'pick.blend')?.jobId ?? null;
    await expect.poll(jobIdOf, { timeout: 30_000 }).not.toBeNull();
    const jobId = (await jobIdOf())!;
    await expect.poll(async () => (await host.handlers['jobs.get']({ jobId })).finalConfig?.blenderVersion, { timeout: 60_000 }).toBe(v43);
    expect((await host.handlers['jobs.get']({ jobId })).requestedConfig).toMatchObject({ blenderVersion: v43 });
  }, 300_000);
});
