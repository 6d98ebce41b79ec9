import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { tempDir } from '../helpers/scene-files';
import { seriousAxeProblems } from './axe-audit';
import { ARTIFACTS, dropFiles, openApp, type AppUnderTest } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';
import { SCREEN_SIZES } from './screen-sizes';

const ready = requireChromium() && requireBlender() !== null;
const SIZES = SCREEN_SIZES.filter((s) => [800, 1024, 1440].includes(s.width));
const HORIZONTAL_OVERFLOW = `document.documentElement.scrollWidth - document.documentElement.clientWidth`;
/** The review's node estimate; the range is left out when both ends round to the same figure (sure to the unit shown). */
const ESTIMATE = /^About (\d+(?:\.\d)?) (s|min|h)(?: \(likely \d+(?:\.\d)?(?: (?:s|min|h))?–\d+(?:\.\d)?(?: (?:s|min|h))?\))? to render on this farm\.$/;

/**
 * The review of a scene on this computer's node: once the node's sample render has measured it, the
 * review says the render time with its likely range, and says it again for the samples typed in; looked
 * at in three sizes, axe clean.
 */
describe.skipIf(!ready)("the node's estimate with its range in the review (browser mode, embedded node, real Blender)", () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await openApp(browser);
    page = app.page;
    await mkdir(ARTIFACTS, { recursive: true });
    await page.getByRole('button', { name: 'Add files…' }).waitFor({ timeout: 30_000 });
  });
  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  it('says "About … (likely …)" from the sample render, and again for more samples, at 800, 1024 and 1440 px', { timeout: 300_000 }, async () => {
    const name = 'measured shot.blend';
    const scene = await makeSampleScene(await tempDir('rd-e2e-estimate-'), { frames: 8, missingTexture: false, everySample: true, name });
    await dropFiles(page, [{ name, bytes: await readFile(scene) }]);
    const sheet = page.getByRole('dialog', { name: `Review ${name}` });
    await sheet.getByLabel('Samples').waitFor({ timeout: 120_000 });
    const estimate = sheet.getByTestId('render-estimate');
    await expect.poll(async () => ((await estimate.count()) > 0 ? ((await estimate.textContent()) ?? '') : ''), { timeout: 180_000, interval: 500 }).toMatch(/^About \d+ (s|min|h)( \(likely .+\))? to render on this farm\.$/);
    const first = (await estimate.textContent())!;

    // Many more samples: the node's estimate is carried to them without another sample render, with its range.
    const samples = sheet.getByLabel('Samples');
    const own = await samples.inputValue();
    await samples.fill(String(Number(own) * 256));
    await expect.poll(async () => (await estimate.textContent()) ?? '', { timeout: 10_000 }).not.toBe(first);
    const scaled = ESTIMATE.exec((await estimate.textContent()) ?? '');
    expect(scaled, (await estimate.textContent()) ?? '').not.toBeNull();
    console.log(`review: "${first}" then, with more samples, "${scaled![0]}"`);

    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.waitForTimeout(200);
      await estimate.scrollIntoViewIfNeeded();
      expect(await page.evaluate(HORIZONTAL_OVERFLOW), `sideways at ${size.width}`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(ARTIFACTS, `node-estimate-${size.width}.png`) });
      expect(await seriousAxeProblems(page, { include: '[role="dialog"]' }), `axe at ${size.width} x ${size.height}`).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // Rendered at the scene's own samples, the job's details set the estimate against the time it took.
    await samples.fill(own);
    await sheet.getByRole('button', { name: 'Start render' }).click();
    const row = page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name });
    await expect.poll(async () => (await app.host.handlers['jobs.list']({ search: name })).jobs.find((j) => j.fileName === name)?.status, { timeout: 180_000, interval: 500 }).toBe('completed');
    await row.getByRole('button', { name: `Details of ${name}` }).click();
    const detail = page.getByRole('complementary', { name: 'Job details' });
    await expect.poll(async () => ((await detail.getByTestId('detail-estimate').count()) > 0 ? await detail.getByTestId('detail-estimate').textContent() : ''), { timeout: 30_000 }).toMatch(/^Estimated \d+(\.\d)? (s|min|h), took \d+(\.\d)? (s|min|h)$/);
    console.log(`details: "${await detail.getByTestId('detail-estimate').textContent()}"`);
    await page.screenshot({ path: join(ARTIFACTS, 'node-estimate-details.png') });
    expect(await seriousAxeProblems(page), 'axe with the details open').toEqual([]);
  });
});
