import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sceneFrames, spreadOrder } from '../../src/shared/render';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { requireRedis } from '../helpers/redis';
import { tempDir } from '../helpers/scene-files';
import { openAppOnWorkers, type AppOnWorkers } from './app-on-workers';
import { ARTIFACTS, openApp, type AppUnderTest } from './app-under-test';
import { seriousAxeProblems } from './axe-audit';
import { launchChromium, requireChromium } from './chromium';
import { SCREEN_SIZES } from './screen-sizes';

const blender = requireBlender();
const redisServer = requireRedis();
const FRAMES = 16;
const SIZES = SCREEN_SIZES;

/** The parts of an <img> the checks read (the tests are type-checked without the DOM library). */
interface Picture {
  complete: boolean;
  naturalWidth: number;
}

/** The natural width of an <img>: 0 until a real image has loaded. */
function naturalWidth(image: Locator): Promise<number> {
  return image.evaluate((img: Picture) => (img.complete ? img.naturalWidth : 0));
}

async function jobOf(app: AppUnderTest, name: string) {
  const job = (await app.host.handlers['jobs.list']({ search: name })).jobs.find((j) => j.fileName === name);
  if (!job) throw new Error(`${name} is not in the queue`);
  return job;
}

/**
 * Submit a slow scene, open its details and check, while it still renders, that the grid shows the
 * frames written so far as pictures (the rest pending), that the row has the latest frame as its
 * thumbnail and that the viewer plays the frames there are; screenshots at every size, axe clean.
 */
async function gridWhileRendering(app: AppUnderTest, name: string, shots: string): Promise<void> {
  const { page } = app;
  const scene = await makeSampleScene(await tempDir('rd-e2e-live-'), { frames: FRAMES, missingTexture: false, everySample: true, name });
  const [submitted] = await app.host.handlers['submissions.submit']({ files: [{ path: scene }], renderConfig: { colorManagementPreset: 'default', sampleCount: 2048, frameRanges: [`1-${FRAMES}`] } });
  expect(submitted?.ok).toBe(true);
  const row = page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name });
  await row.waitFor({ timeout: 120_000 });
  await row.getByRole('button', { name: `Details of ${name}` }).click();
  const detail = page.getByRole('complementary', { name: 'Job details' });
  const grid = detail.getByRole('list', { name: `Frames of ${name}` });
  const rendered = grid.getByRole('button', { name: /^Frame \d+, rendered/ });
  await expect
    .poll(
      async () => {
        const shown = await rendered.count();
        const job = await jobOf(app, name);
        return shown >= 2 ? 'two frames shown' : `${job.status}, ${job.completedFrames} of ${FRAMES} written, ${shown} shown`;
      },
      { timeout: 300_000, interval: 500 },
    )
    .toBe('two frames shown');
  const pictures = grid.locator('img');
  await expect.poll(() => pictures.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  for (const i of [0, 1]) await expect.poll(() => naturalWidth(pictures.nth(i)), { timeout: 30_000 }).toBe(64);
  // Frames render across the shot first: the last one to come is the last of the spread order.
  await grid.getByRole('img', { name: `Frame ${spreadOrder(sceneFrames(1, FRAMES, 1)).at(-1)}, not available yet` }).waitFor();
  const count = (await detail.locator('.frames-count').textContent()) ?? '';
  expect(count).toMatch(new RegExp(`^\\d+ of ${FRAMES} frames to view, more as they render\\.$`));
  expect((await detail.textContent()) ?? '').not.toContain('shown above');
  const thumbnail = row.getByRole('img', { name: `Latest frame of ${name}` });
  await expect.poll(async () => ((await thumbnail.count()) > 0 ? naturalWidth(thumbnail) : 0), { timeout: 60_000 }).toBe(64);
  const shownName = await row.locator('.row-name .middle-ellipsis').first().innerText();
  expect(shownName.replace(/\n/g, ''), 'the row name keeps its space where it is cut').toBe(name);

  await grid.scrollIntoViewIfNeeded();
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(ARTIFACTS, `${shots}-${size.width}.png`) });
    expect(await seriousAxeProblems(page), `axe at ${size.width} x ${size.height}`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await playsWhatExists(page, name, rendered);
  const job = await jobOf(app, name);
  expect(job.status, 'the job still renders after every check').toBe('rendering');
  expect(job.completedFrames).toBeLessThan(FRAMES);
  await app.host.handlers['jobs.cancel']({ jobId: job.id });
}

/** Opens the first rendered frame large and plays: it goes through the frames written so far, and says so. */
async function playsWhatExists(page: Page, name: string, rendered: Locator): Promise<void> {
  await rendered.first().click();
  const viewer = page.getByRole('dialog', { name: new RegExp(`^Frame \\d+ of ${name.replace('.', '\\.')}$`) });
  await viewer.waitFor();
  expect(await viewer.getByRole('heading').textContent()).toMatch(/^Frame \d+ \(1 of \d+ so far\)$/);
  await viewer.getByRole('button', { name: /^Play at/ }).click();
  const seen = new Set<string>();
  for (let i = 0; i < 60 && seen.size < 2; i++) {
    seen.add((await viewer.getByRole('img').first().getAttribute('data-frame')) ?? '');
    await page.waitForTimeout(50);
  }
  seen.delete('');
  expect(seen.size).toBeGreaterThanOrEqual(2);
  await viewer.getByRole('button', { name: 'Pause' }).click();
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
}

describe.skipIf(!requireChromium() || !blender)('the frame grid while a job renders on this computer (browser mode, embedded node, real Blender)', () => {
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

  it('shows each finished frame as a picture, the row its latest frame, and plays what exists so far', { timeout: 400_000 }, async () => {
    await gridWhileRendering(app, 'live frames.blend', 'frames-while-rendering-embedded');
  });
});

describe.skipIf(!requireChromium() || !blender || !redisServer)('the frame grid while two render workers render a job (browser mode, Redis, real Blender)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let onWorkers: AppOnWorkers | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
    onWorkers = await openAppOnWorkers(browser, { blender: blender!, redisServer: redisServer! }, 'rd-e2e-live-workers-');
    app = onWorkers.app;
    await mkdir(ARTIFACTS, { recursive: true });
  }, 180_000);
  afterAll(async () => {
    await onWorkers?.close();
    await browser?.close();
  });

  it('shows each frame a worker delivered as a picture from its preview, the row its latest frame', { timeout: 400_000 }, async () => {
    await gridWhileRendering(app, 'worker frames.blend', 'frames-while-rendering-workers');
  });
});
