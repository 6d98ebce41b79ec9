import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sceneFrames, spreadOrder } from '../../src/shared/render';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { tempDir } from '../helpers/scene-files';
import { ARTIFACTS, dropFiles, openApp, type AppUnderTest } from './app-under-test';
import { seriousAxeProblems } from './axe-audit';
import { launchChromium, requireChromium } from './chromium';
import { SCREEN_SIZES } from './screen-sizes';

const blender = requireBlender();
const FRAMES = 17;
const SPREAD = spreadOrder(sceneFrames(1, FRAMES, 1));
const SIZES = SCREEN_SIZES.filter((s) => [800, 1024, 1440].includes(s.width));

/**
 * A job rendered with the default order on this computer: while it renders, the frame strip holds the
 * first, the last and the middle frame and fills in across the shot, the frames between them still
 * empty tiles; looked at in three sizes, axe clean.
 */
describe.skipIf(!requireChromium() || !blender)('the frame strip filling in across the shot (browser mode, embedded node, real Blender)', () => {
  let browser: Browser;
  let app: AppUnderTest;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await openApp(browser);
    await mkdir(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  it('shows the first, last and middle frames first, the frames between them as empty tiles, at 800, 1024 and 1440 px', { timeout: 400_000 }, async () => {
    const { page } = app;
    const name = 'whole shot.blend';
    // Every sample is rendered, so each frame takes a while on any machine.
    const scene = await makeSampleScene(await tempDir('rd-e2e-spread-'), { frames: FRAMES, missingTexture: false, everySample: true, name });
    const [submitted] = await app.host.handlers['submissions.submit']({ files: [{ path: scene }], renderConfig: { colorManagementPreset: 'default', sampleCount: 2048 } });
    expect(submitted?.ok).toBe(true);
    const row = page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name });
    await row.waitFor({ timeout: 120_000 });
    await row.getByRole('button', { name: `Details of ${name}` }).click();
    const detail = page.getByRole('complementary', { name: 'Job details' });
    const grid = detail.getByRole('list', { name: `Frames of ${name}` });
    const rendered = async () =>
      (await grid.getByRole('button', { name: /^Frame \d+, rendered/ }).evaluateAll((buttons: { getAttribute(name: string): string | null }[]) => buttons.map((b) => b.getAttribute('aria-label'))))
        .map((label) => Number(/^Frame (\d+)/.exec(label ?? '')?.[1]))
        .sort((a, b) => a - b);
    await expect.poll(async () => (await rendered()).length, { timeout: 300_000, interval: 500 }).toBeGreaterThanOrEqual(3);
    const shown = await rendered();
    // What the strip shows is the start of the spread order: 1, 17, 9, then 5, 13 …
    expect(shown).toEqual(SPREAD.slice(0, shown.length).sort((a, b) => a - b));
    expect(shown).toEqual(expect.arrayContaining([1, FRAMES, 9]));
    const next = SPREAD.at(-1)!;
    await grid.getByRole('img', { name: `Frame ${next}, not available yet` }).waitFor();
    await grid.getByRole('img', { name: 'Frame 2, not available yet' }).waitFor();

    await grid.scrollIntoViewIfNeeded();
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(ARTIFACTS, `spread-strip-${size.width}.png`) });
      expect(await page.locator('body').evaluate((el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth - el.clientWidth), `${size.width}: sideways`).toBeLessThanOrEqual(0);
      expect(await seriousAxeProblems(page), `axe at ${size.width} x ${size.height}`).toEqual([]);
    }
    const job = (await app.host.handlers['jobs.list']({ search: name })).jobs.find((j) => j.fileName === name)!;
    expect(job.status, 'the job still renders after every check').toBe('rendering');
    await app.host.handlers['jobs.cancel']({ jobId: job.id });
  });

  it('offers the frame order in the review (across the shot first, or in order), and a job sent in order fills the strip from its first frame', { timeout: 400_000 }, async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Escape');
    const name = 'in order.blend';
    const scene = await makeSampleScene(await tempDir('rd-e2e-in-order-'), { frames: FRAMES, missingTexture: false, everySample: true, name });
    await dropFiles(page, [{ name, bytes: await readFile(scene) }]);
    const sheet = page.getByRole('dialog', { name: `Review ${name}` });
    await sheet.waitFor({ timeout: 120_000 });
    const order = sheet.getByLabel('Frame order');
    await order.waitFor({ timeout: 60_000 });
    expect(await order.inputValue()).toBe('spread');
    await sheet.getByText('The first, last and middle frames render first, then the gaps fill in, so you see the whole shot early.').waitFor();
    await order.selectOption({ label: 'In order' });
    await sheet.getByText('Frames render one after the other, from the first.').waitFor();
    await sheet.getByLabel('Samples', { exact: true }).fill('2048');
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.waitForTimeout(200);
      await order.scrollIntoViewIfNeeded();
      expect(await page.locator('body').evaluate((el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth - el.clientWidth), `${size.width}: sideways`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(ARTIFACTS, `review-frame-order-${size.width}.png`) });
    }
    expect(await seriousAxeProblems(page, { include: '[role="dialog"]' })).toEqual([]);
    await sheet.getByRole('button', { name: /^Start render/ }).click();

    const row = page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name });
    await row.waitFor({ timeout: 120_000 });
    await row.getByRole('button', { name: `Details of ${name}` }).click();
    const grid = page.getByRole('complementary', { name: 'Job details' }).getByRole('list', { name: `Frames of ${name}` });
    const done = grid.getByRole('button', { name: /^Frame \d+, rendered/ });
    await expect.poll(() => done.count(), { timeout: 300_000, interval: 500 }).toBeGreaterThanOrEqual(2);
    await grid.getByRole('button', { name: /^Frame 1, rendered/ }).waitFor();
    await grid.getByRole('button', { name: /^Frame 2, rendered/ }).waitFor();
    await grid.getByRole('img', { name: `Frame ${FRAMES}, not available yet` }).waitFor();
    const job = (await app.host.handlers['jobs.list']({ search: name })).jobs.find((j) => j.fileName === name)!;
    await app.host.handlers['jobs.cancel']({ jobId: job.id });
  });

  it('says in the review that a scene simulating without a bake renders in order, at 800, 1024 and 1440 px', { timeout: 400_000 }, async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Escape');
    const name = 'falling cube.blend';
    const dir = await tempDir('rd-e2e-simulation-');
    const scene = join(dir, name);
    await promisify(execFile)(blender!, ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python', join(import.meta.dirname, '..', 'fixtures', 'blender', 'make-rigid-body-scene.py'), '--', scene, '12']);
    await dropFiles(page, [{ name, bytes: await readFile(scene) }]);
    const sheet = page.getByRole('dialog', { name: `Review ${name}` });
    await sheet.waitFor({ timeout: 120_000 });
    const order = sheet.getByLabel('Frame order');
    await order.waitFor({ timeout: 60_000 });
    expect(await order.inputValue()).toBe('sequential');
    expect(await order.isDisabled()).toBe(true);
    await sheet.getByText('Always in order for this scene: it simulates without a bake, so each frame follows from the one before.').waitFor();
    await sheet.getByText(/^Frames render one after the other from the first, in one Blender run: the scene simulates rigid bodies without a bake/).waitFor();
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.waitForTimeout(200);
      await order.scrollIntoViewIfNeeded();
      expect(await page.locator('body').evaluate((el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth - el.clientWidth), `${size.width}: sideways`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(ARTIFACTS, `review-simulation-order-${size.width}.png`) });
    }
    expect(await seriousAxeProblems(page, { include: '[role="dialog"]' })).toEqual([]);
    await sheet.getByRole('button', { name: 'Discard' }).click();
  });
});
