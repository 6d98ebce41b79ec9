import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { tempDir } from '../helpers/scene-files';
import { ARTIFACTS, dropFiles, openApp, type AppUnderTest } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';

const ready = requireChromium() && requireBlender() !== null;

/** The sample scene misses its texture: its card holds it before upload until "Continue anyway". */
async function continueWithoutMissing(page: Page, name: string): Promise<void> {
  const card = page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name });
  await card.getByRole('button', { name: 'Continue anyway' }).click({ timeout: 60_000 });
}

async function waitForValue(page: Page, label: string, value: number, timeoutMs: number): Promise<void> {
  await page.getByRole('progressbar', { name: label }).and(page.locator(`[aria-valuenow="${value}"]`)).waitFor({ timeout: timeoutMs });
}

describe.skipIf(!ready)('the app in Chromium (browser mode, local node, real Blender)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let scenes: string;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await openApp(browser);
    page = app.page;
    scenes = await tempDir('rd-e2e-scenes-');
    await mkdir(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  it('starts on "This computer" with the first-run welcome and an empty queue', async () => {
    await expect.poll(() => page.locator('[data-state="first-run"]').count(), { timeout: 30_000 }).toBe(1);
    await page.getByText('No jobs yet').waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
  });

  it('renders a dropped scene: detected range, overridden samples, progress to 100 %, frames on disk', async () => {
    const scene = await makeSampleScene(scenes, {});
    await dropFiles(page, [{ name: 'sample.blend', bytes: await readFile(scene) }]);
    await continueWithoutMissing(page, 'sample.blend');
    const sheet = page.getByRole('dialog', { name: 'Review sample.blend' });
    await sheet.waitFor({ timeout: 120_000 });
    await expect.poll(() => sheet.getByTestId('detected-frame-range').textContent()).toContain('1–3');
    await expect.poll(() => sheet.getByText('missing-albedo.png').count()).toBeGreaterThan(0);
    const samples = sheet.getByLabel('Samples');
    await samples.fill('2');
    const frames = sheet.getByLabel('Frames');
    await frames.fill('1-');
    await expect.poll(() => frames.getAttribute('aria-invalid')).toBe('true');
    expect(await sheet.getByRole('button', { name: 'Start render' }).isDisabled()).toBe(true);
    await frames.fill('1-3');
    await expect.poll(() => sheet.getByText('3 frames selected.').count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'review-sheet.png') });
    await sheet.getByRole('button', { name: 'Start render' }).click();

    const row = page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name: 'sample.blend' });
    await row.waitFor({ timeout: 30_000 });
    await waitForValue(page, 'Progress of sample.blend', 100, 180_000);
    await row.getByText('Downloaded').waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(ARTIFACTS, 'queue.png') });

    const folders = await readdir(app.downloads);
    expect(folders).toHaveLength(1);
    const files = await readdir(join(app.downloads, folders[0]!), { recursive: true });
    expect(files.filter((f) => /\.png$/.test(String(f)) && !String(f).includes('preview')).length).toBeGreaterThanOrEqual(3);

    await row.getByRole('button', { name: 'Details of sample.blend' }).click();
    const detail = page.getByRole('complementary', { name: 'Job details' });
    await detail.getByRole('region', { name: 'Requested and final settings' }).waitFor();
    await expect.poll(() => detail.getByRole('row', { name: /^Samples/ }).textContent()).toContain('2');
    await detail.getByRole('region', { name: 'Output files' }).waitFor();
  });

  it('cancels a render', async () => {
    const scene = await makeSampleScene(scenes, { frames: 400, name: 'long.blend' });
    await page.getByTestId('file-input').setInputFiles(scene);
    await continueWithoutMissing(page, 'long.blend');
    const sheet = page.getByRole('dialog', { name: 'Review long.blend' });
    await sheet.waitFor({ timeout: 120_000 });
    // Enough samples that the render is still going when Cancel is pressed, however fast the machine.
    await sheet.getByLabel('Samples').fill('4096');
    await sheet.getByRole('button', { name: 'Start render' }).click();
    const row = page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name: 'long.blend' });
    await row.getByText(/Rendering|Starting/).first().waitFor({ timeout: 60_000 });
    // The details of the earlier job are open, so the row is narrow and its actions are in its menu.
    await row.getByRole('button', { name: 'More actions for long.blend' }).click();
    await page.getByRole('menu', { name: 'Actions for long.blend' }).getByRole('menuitem', { name: 'Cancel' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel render' }).click();
    await row.getByText('Canceled').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: /^Canceled/ }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Render queue' }).getByRole('listitem').count()).toBe(1);
    await page.getByRole('button', { name: /^All/ }).click();
  });

  it('shows why a text file renamed .blend was refused, where it was dropped', async () => {
    await dropFiles(page, [{ name: 'notes.blend', bytes: Buffer.from('these are my notes, not a scene\n') }]);
    const item = page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name: 'notes.blend' });
    await item.getByRole('alert').waitFor({ timeout: 30_000 });
    expect(await item.getByRole('alert').textContent()).toMatch(/not a Blender file/);
  });

  it('refuses a cloud profile whose key the server rejects, and adds it without a key', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Add a cloud profile' });
    await form.getByLabel('Name').fill('Studio farm');
    await form.getByLabel('Server address').fill(app.host.localNodeUrl!);
    await form.getByLabel('API key').fill('RJ-this-key-is-wrong');
    await form.getByRole('button', { name: 'Add profile' }).click();
    await form.getByText(/rejected this API key \(401\), so it was not saved/).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('radio', { name: /Studio farm/ }).count()).toBe(0);
    await form.getByLabel('API key').fill('');
    await form.getByRole('button', { name: 'Add profile' }).click();
    await form.getByText('Added "Studio farm"').waitFor();
    await page.getByRole('radio', { name: /Studio farm/ }).click();
    await page.locator('[data-state="no-key"]').waitFor({ timeout: 30_000 });
    await page.screenshot({ path: join(ARTIFACTS, 'no-key.png'), fullPage: true });
    expect(await page.content()).not.toContain('RJ-this-key-is-wrong');
    await page.getByRole('radio', { name: /This computer/ }).click();
    await expect.poll(() => page.locator('[data-state="no-key"]').count(), { timeout: 30_000 }).toBe(0);
  });
});
