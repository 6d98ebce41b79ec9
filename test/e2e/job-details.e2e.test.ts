import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RenderConfig } from '../../src/shared/api/render-config';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { tempDir } from '../helpers/scene-files';
import { ARTIFACTS, openApp, type AppUnderTest } from './app-under-test';
import { seriousAxeProblems } from './axe-audit';
import { launchChromium, requireChromium } from './chromium';

const ready = requireChromium() && requireBlender() !== null;
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 640 },
  { width: 800, height: 600 },
] as const;

/** The parts of DOM elements the checks read (the tests are type-checked without the DOM library). */
interface Sized {
  scrollWidth: number;
  clientWidth: number;
}
interface Picture extends Sized {
  complete: boolean;
  naturalWidth: number;
}

/** The natural width of an <img>: 0 until a real image has loaded. */
function naturalWidth(image: Locator): Promise<number> {
  return image.evaluate((img: Picture) => (img.complete ? img.naturalWidth : 0));
}

/** How far an element's content is wider than the element. */
function overflow(element: Locator): Promise<number> {
  return element.evaluate((el: Sized) => el.scrollWidth - el.clientWidth);
}

function shownWidth(element: Locator): Promise<number> {
  return element.evaluate((el: Sized) => el.clientWidth);
}

/** Submits a scene through the host (no review), returning once the queue lists it. */
async function submit(app: AppUnderTest, path: string, renderConfig: RenderConfig): Promise<void> {
  const [result] = await app.host.handlers['submissions.submit']({ files: [{ path }], renderConfig });
  expect(result?.ok).toBe(true);
}

async function openDetails(page: Page, name: string): Promise<Locator> {
  const row = page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name });
  await row.waitFor({ timeout: 120_000 });
  await row.getByRole('button', { name: `Details of ${name}` }).click();
  const detail = page.getByRole('complementary', { name: 'Job details' });
  await detail.getByRole('heading', { name }).waitFor();
  return detail;
}

async function jobIdOf(app: AppUnderTest, name: string): Promise<string> {
  const page = await app.host.handlers['jobs.list']({ search: name });
  const job = page.jobs.find((j) => j.fileName === name);
  if (!job) throw new Error(`${name} is not in the queue`);
  return job.id;
}

async function screenshots(page: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${size.width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe.skipIf(!ready)('job details: frames, viewer and settings in words (browser mode, local node, real Blender)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let scenes: string;
  const opened: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    app = await openApp(browser, {
      openPath: async (path) => {
        opened.push(path);
      },
    });
    page = app.page;
    scenes = await tempDir('rd-e2e-details-');
    await mkdir(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  it('shows the last rendered frame while an 8-frame job renders', async () => {
    // Every one of the samples is rendered, so the job renders for a while on any machine.
    const scene = await makeSampleScene(scenes, { frames: 8, missingTexture: false, name: 'walk cycle.blend', everySample: true });
    await submit(app, scene, { colorManagementPreset: 'default', sampleCount: 6000, frameRanges: ['1-8'] });
    const detail = await openDetails(page, 'walk cycle.blend');

    const live = detail.getByRole('figure', { name: 'Last rendered frame' }).getByRole('img');
    const jobId = await jobIdOf(app, 'walk cycle.blend');
    // Says what the app knew of the job if the frame never shows.
    await expect
      .poll(
        async () => {
          if (await live.isVisible()) return 'shown';
          const { summary } = await app.host.handlers['jobs.get']({ jobId });
          return `${summary.status}, ${summary.completedFrames} of 8 done, preview ${summary.hasPreview ? 'on the server' : 'not there'}`;
        },
        { timeout: 180_000, interval: 500 },
      )
      .toBe('shown');
    await expect.poll(() => naturalWidth(live)).toBeGreaterThan(0);
    const caption = await detail.getByRole('figure', { name: 'Last rendered frame' }).textContent();
    const done = Number(/\((\d+) of 8 done\)/.exec(caption ?? '')?.[1]);
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(8);
    // Frames render across the shot first (1, 8, 4, 2, 6, 3, 5, 7): frame 7 comes last.
    await detail.getByRole('img', { name: 'Frame 7, not available yet' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'details-rendering.png') });
  });

  it('shows every frame of the finished job as a thumbnail read from the download folder', async () => {
    const detail = page.getByRole('complementary', { name: 'Job details' });
    const grid = detail.getByRole('list', { name: 'Frames of walk cycle.blend' });
    await expect.poll(() => grid.getByRole('button', { name: /^Frame \d+, rendered, on this computer/ }).count(), { timeout: 300_000, interval: 1000 }).toBe(8);
    await grid.scrollIntoViewIfNeeded();
    const thumbnails = grid.locator('img');
    await expect.poll(() => thumbnails.count(), { timeout: 30_000 }).toBe(8);
    for (let i = 0; i < 8; i++) await expect.poll(() => naturalWidth(thumbnails.nth(i))).toBe(64);
    await detail.getByRole('figure', { name: 'Preview' }).waitFor();

    const frames = await app.host.handlers['jobs.frames']({ jobId: await jobIdOf(app, 'walk cycle.blend') });
    expect(frames.frames.map((f) => [f.frame, f.state, f.onDisk])).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, 'done', true]));
    expect(frames.fps).toBe(24);
  });

  it('speaks an artist’s words, fits the panel at every size and passes the accessibility audit', async () => {
    const detail = page.getByRole('complementary', { name: 'Job details' });
    const settings = detail.getByRole('region', { name: 'Requested and final settings' });
    expect(await settings.getByRole('row', { name: /^Samples/ }).textContent()).toContain('6000');
    expect(await settings.getByRole('row', { name: /^Output/ }).textContent()).toContain('PNG, 8-bit');
    const text = (await detail.textContent()) ?? '';
    expect(text).not.toMatch(/\b(sampleCount|colorManagementPreset|frameRanges|outputSettings|normalizedSeconds)\b|[{}]|Render time counted|\.\./);
    expect(text).toContain('Colour management');
    for (const size of SIZES.slice(1)) {
      await page.setViewportSize(size);
      await expect.poll(() => overflow(detail)).toBeLessThanOrEqual(0);
      await expect.poll(() => overflow(page.locator('html'))).toBeLessThanOrEqual(0);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await seriousAxeProblems(page, { include: '.detail' })).toEqual([]);
    await screenshots(page, 'details-panel');
    await settings.scrollIntoViewIfNeeded();
    await screenshots(page, 'details-settings');

    await detail.getByRole('button', { name: 'Open folder' }).click();
    await expect.poll(() => opened.at(-1)).toContain(join(app.downloads, 'walk cycle-'));
  });

  it('opens a frame large: arrow keys change frame, 1:1 and fit, Escape closes and focus returns', async () => {
    const detail = page.getByRole('complementary', { name: 'Job details' });
    const tile = detail.getByRole('button', { name: /^Frame 3, rendered/ });
    await tile.click();
    const viewer = page.getByRole('dialog', { name: 'Frame 3 of walk cycle.blend' });
    await viewer.waitFor();
    const image = () => page.getByRole('dialog').getByRole('img', { name: /^Frame \d of walk cycle\.blend$/ });
    await expect.poll(() => naturalWidth(image())).toBe(64);
    expect(await shownWidth(image())).toBeGreaterThan(64);

    await page.keyboard.press('ArrowRight');
    await page.getByRole('dialog', { name: 'Frame 4 of walk cycle.blend' }).waitFor();
    await expect.poll(() => image().getAttribute('data-frame')).toBe('4');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.getByRole('dialog', { name: 'Frame 2 of walk cycle.blend' }).waitFor();

    await page.getByRole('button', { name: '1:1' }).click();
    expect(await page.getByRole('button', { name: 'Fit' }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => shownWidth(image())).toBe(64);
    expect(await seriousAxeProblems(page, { include: '.viewer-backdrop' })).toEqual([]);
    await screenshots(page, 'viewer-actual-size');
    await page.getByRole('button', { name: 'Fit' }).click();
    await expect.poll(() => shownWidth(image())).toBeGreaterThan(64);
    await screenshots(page, 'viewer-fit');

    await page.getByRole('button', { name: 'Play at 24 fps' }).click();
    const seen = new Set<string>();
    for (let i = 0; i < 20 && seen.size < 3; i++) {
      seen.add((await image().getAttribute('data-frame')) ?? '');
      await page.waitForTimeout(50);
    }
    expect(seen.size).toBeGreaterThanOrEqual(3);
    await page.getByRole('button', { name: 'Pause' }).click();

    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await tile.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect(await detail.count()).toBe(1);
  });

  it('says what a 32-bit EXR is and offers to open its frames in the image viewer', async () => {
    const scene = await makeSampleScene(scenes, { frames: 2, missingTexture: false, name: 'plate.blend' });
    await submit(app, scene, { colorManagementPreset: 'default', outputFormat: 'OPEN_EXR', frameRanges: ['1-2'] });
    const detail = await openDetails(page, 'plate.blend');
    const grid = detail.getByRole('list', { name: 'Frames of plate.blend' });
    await expect.poll(() => grid.getByRole('button', { name: /rendered, on this computer/ }).count(), { timeout: 300_000, interval: 1000 }).toBe(2);
    const settings = detail.getByRole('region', { name: 'Requested and final settings' });
    expect(await settings.getByRole('row', { name: /^Output/ }).textContent()).toContain('OpenEXR, 32-bit float');
    expect(await detail.textContent()).not.toMatch(/\b8-bit\b/);

    await grid.getByRole('button', { name: /^Frame 1, rendered/ }).click();
    const viewer = page.getByRole('dialog', { name: 'Frame 1 of plate.blend' });
    await viewer.getByText(/OpenEXR frames cannot be shown in this window/).waitFor();
    await viewer.getByRole('button', { name: 'Open in your image viewer' }).click();
    await expect.poll(() => opened.at(-1)).toMatch(/plate-[^/]+\/[^/]*0001\.exr$/);
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-exr.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  });
});
