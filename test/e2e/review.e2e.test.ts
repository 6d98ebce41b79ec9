import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { tempDir } from '../helpers/scene-files';
import { seriousAxeProblems } from './axe-audit';
import { ARTIFACTS, SCREEN_SIZES, dropFiles, openApp, type AppUnderTest } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';

const ready = requireChromium() && requireBlender() !== null;


/** Runs in the page: whether focus is inside the open dialog (kept as text: tests compile without the DOM library). */
const FOCUS_IN_DIALOG = `(() => { const a = document.activeElement; return !!a && a !== document.body && !!a.closest('[role="dialog"], [role="alertdialog"]'); })()`;
const FOCUSED_NAME = `(() => { const a = document.activeElement; return a ? (a.getAttribute('aria-label') || a.textContent || a.tagName).trim() : ''; })()`;
const HORIZONTAL_OVERFLOW = `document.documentElement.scrollWidth - document.documentElement.clientWidth`;

/** Screenshots of what is shown now at 800, 1024 and 1440 px wide, each checked for sideways scrolling. */
async function shootAtEverySize(page: Page, name: string, show?: Locator): Promise<void> {
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    await show?.scrollIntoViewIfNeeded();
    expect(await page.evaluate(HORIZONTAL_OVERFLOW), `${name} scrolls sideways at ${size.width}x${size.height}`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${size.width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Whether the element is entirely inside the window (not below the fold). */
async function inView(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize();
  return !!box && !!size && box.y >= 0 && box.y + box.height <= size.height && box.x >= 0 && box.x + box.width <= size.width;
}

function queueRow(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name });
}

describe.skipIf(!ready)('review, dialogs and settings in Chromium (browser mode, local node, real Blender)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let scenes: string;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await openApp(browser);
    page = app.page;
    scenes = await tempDir('rd-e2e-review-');
    await mkdir(ARTIFACTS, { recursive: true });
    await page.getByRole('button', { name: 'Add files…' }).waitFor({ timeout: 30_000 });
  });

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  it('shows the favicon the web server serves', async () => {
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(href).toBeTruthy();
    const response = await page.request.get(new URL(href!, page.url()).toString());
    expect(response.status()).toBe(200);
    expect(await response.text()).toContain('<svg');
  });

  it('reviews all three dropped scenes: focus trapped, Escape gives focus back, Back/Next, settings for all', async () => {
    const names = ['shot-a.blend', 'shot-b.blend', 'shot-c.blend'];
    const files = await Promise.all(names.map(async (name) => ({ name, bytes: await readFile(await makeSampleScene(scenes, { missingTexture: false, name })) })));
    await dropFiles(page, [...files, { name: 'notes.blend', bytes: Buffer.from('these are my notes, not a scene\n') }]);

    const sheet = page.getByRole('dialog', { name: 'Review shot-a.blend' });
    await sheet.waitFor({ timeout: 120_000 });
    await sheet.getByText('Scene 1 of 4').waitFor();
    await sheet.getByRole('button', { name: 'Use these settings for all' }).and(page.locator(':not([disabled])')).waitFor({ timeout: 120_000 });
    await sheet.getByLabel('Samples').waitFor();

    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(FOCUS_IN_DIALOG), `Tab ${i + 1} left the dialog`).toBe(true);
    }
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await page.evaluate(FOCUS_IN_DIALOG), `Shift+Tab ${i + 1} left the dialog`).toBe(true);
    }

    await shootAtEverySize(page, 'review-several');
    await page.setViewportSize({ width: 1024, height: 640 });
    expect(await inView(page, sheet.getByRole('button', { name: 'Start render' }))).toBe(true);
    expect(await seriousAxeProblems(page, { include: '[role="dialog"]' })).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });

    await sheet.getByRole('button', { name: 'Next' }).click();
    const second = page.getByRole('dialog', { name: 'Review shot-b.blend' });
    await second.getByText('Scene 2 of 4').waitFor();
    await second.getByRole('button', { name: 'Next' }).click();
    const third = page.getByRole('dialog', { name: 'Review shot-c.blend' });
    await third.getByText('Scene 3 of 4').waitFor();
    await third.getByRole('button', { name: 'Next' }).click();
    const refused = page.getByRole('dialog', { name: 'notes.blend was not sent' });
    await refused.getByText('Scene 4 of 4').waitFor();
    expect(await refused.getByRole('alert').textContent()).toMatch(/not a Blender file/);
    expect(await refused.getByRole('button', { name: 'Start render' }).count()).toBe(0);
    for (let i = 0; i < 3; i++) await page.getByRole('dialog').getByRole('button', { name: 'Back' }).click();
    await sheet.getByText('Scene 1 of 4').waitFor();

    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await page.evaluate(`document.activeElement !== document.body`)).toBe(true);

    const review = queueRow(page, 'shot-a.blend').getByRole('button', { name: 'Review shot-a.blend' });
    await review.focus();
    await review.press('Enter');
    await sheet.waitFor();
    expect(await page.evaluate(FOCUS_IN_DIALOG)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.evaluate(FOCUSED_NAME)).toBe('Review shot-a.blend');

    await review.click();
    await sheet.getByLabel('Frames').fill('1');
    await sheet.getByLabel('Samples').fill('2');
    await sheet.getByRole('button', { name: 'Use these settings for all' }).click();
    await expect.poll(() => page.getByRole('dialog').count(), { timeout: 30_000 }).toBe(0);
    for (const name of names) await queueRow(page, name).getByText('Downloaded').waitFor({ timeout: 180_000 });
    for (const name of names) {
      const job = (await app.host.handlers['jobs.list']({ search: name })).jobs[0]!;
      expect(job.totalFrames).toBe(1);
    }
  });

  it('"Submit again" opens the review pre-filled with the job\'s frames and samples, also after a reload', async () => {
    await page.reload();
    const row = queueRow(page, 'shot-b.blend');
    // A completed job's first action is its folder; Submit again is in the row's menu.
    await row.getByRole('button', { name: 'More actions for shot-b.blend' }).click({ timeout: 30_000 });
    await page.getByRole('menu', { name: 'Actions for shot-b.blend' }).getByRole('menuitem', { name: 'Submit again' }).click();
    const sheet = page.getByRole('dialog', { name: 'Review shot-b.blend' });
    await sheet.getByLabel('Frames').waitFor({ timeout: 120_000 });
    expect(await sheet.getByLabel('Frames').inputValue()).toBe('1');
    expect(await sheet.getByLabel('Samples').inputValue()).toBe('2');
    await sheet.getByText('Settings of the render you are sending again').waitFor();
    expect(await sheet.getByText(/Scene \d of \d/).count()).toBe(0);
    await shootAtEverySize(page, 'review-single');
    await page.setViewportSize({ width: 1024, height: 640 });
    expect(await inView(page, sheet.getByRole('button', { name: 'Start render' }))).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await seriousAxeProblems(page, { include: '[role="dialog"]' })).toEqual([]);
    const jobs = (await app.host.handlers['jobs.list']({ search: 'shot-b.blend' })).jobs;
    expect(jobs).toHaveLength(2);
    await sheet.getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // A discarded review leaves nothing in the list; its job is canceled on the farm.
    await expect.poll(async () => (await app.host.handlers['jobs.list']({ search: 'shot-b.blend' })).jobs.length).toBe(1);
    const onServer = async () => Promise.all(jobs.map(async (j) => (await app.host.handlers['jobs.get']({ jobId: j.id })).summary.status));
    await expect.poll(async () => (await onServer()).sort(), { timeout: 30_000 }).toEqual(['canceled', 'completed']);
  });

  it('asks before canceling a render, and Keep rendering leaves it running', async () => {
    const scene = await makeSampleScene(scenes, { frames: 400, name: 'long.blend', missingTexture: false });
    await page.getByTestId('file-input').setInputFiles(scene);
    const sheet = page.getByRole('dialog', { name: 'Review long.blend' });
    // Enough samples that the render is still going while the question is asked, however fast the machine.
    await sheet.getByLabel('Samples').fill('4096', { timeout: 120_000 });
    await sheet.getByRole('button', { name: 'Start render' }).click();
    const row = queueRow(page, 'long.blend');
    await row.getByText(/Rendering|Starting/).first().waitFor({ timeout: 60_000 });

    const cancel = row.getByRole('button', { name: 'Cancel long.blend' });
    await cancel.click();
    const confirm = page.getByRole('alertdialog', { name: 'Cancel the render of long.blend?' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toMatch(/cannot be undone/);
    expect(await page.evaluate(FOCUSED_NAME)).toBe('Keep rendering');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(FOCUS_IN_DIALOG)).toBe(true);
    await shootAtEverySize(page, 'confirm-cancel');
    expect(await seriousAxeProblems(page, { include: '[role="alertdialog"]' })).toEqual([]);
    await confirm.getByRole('button', { name: 'Keep rendering' }).click();
    await expect.poll(() => page.getByRole('alertdialog').count()).toBe(0);
    await expect.poll(() => page.evaluate(FOCUSED_NAME)).toBe('Cancel long.blend');
    const job = (await app.host.handlers['jobs.list']({ search: 'long.blend' })).jobs[0]!;
    expect(['rendering', 'booting']).toContain((await app.host.handlers['jobs.get']({ jobId: job.id })).summary.status);

    await cancel.click();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('alertdialog').count()).toBe(0);
    expect(['rendering', 'booting']).toContain((await app.host.handlers['jobs.get']({ jobId: job.id })).summary.status);

    await cancel.click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel render' }).click();
    await row.getByText('Canceled').waitFor({ timeout: 30_000 });
    await row.getByRole('button', { name: 'Submit again long.blend' }).waitFor();
    await page.reload();
    await queueRow(page, 'long.blend').getByRole('button', { name: 'Submit again long.blend' }).waitFor({ timeout: 30_000 });
  });

  it('changes how this computer renders, applied to its node', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'How this computer renders' });
    await form.getByLabel('Renders at once').fill('2');
    await form.getByLabel('Blender threads per render').selectOption('1');
    await form.getByRole('button', { name: 'Save render settings' }).click();
    await form.getByText(/Saved: 2 renders at once, Blender on 1 thread/).waitFor();
    expect(await app.host.handlers['app.renderWorkers']({})).toEqual({ mode: 'embedded', renders: 2, threads: 1, tags: [], blenderVersions: [expect.stringMatching(/^\d+\.\d+/)] });
    expect((await app.host.handlers['settings.get']({})).thisComputer).toMatchObject({ renders: 2, threads: 1 });
    await form.getByLabel('Renders at once').fill('0');
    expect(await form.getByRole('button', { name: 'Save render settings' }).isDisabled()).toBe(true);
    await form.getByLabel('Renders at once').fill('1');
    await form.getByLabel('Blender threads per render').selectOption('all');
    await form.getByRole('button', { name: 'Save render settings' }).click();
    await form.getByText(/Saved: 1 render at once/).waitFor();
    expect(await app.host.handlers['app.renderWorkers']({})).toEqual({ mode: 'embedded', renders: 1, threads: null, tags: [], blenderVersions: [expect.stringMatching(/^\d+\.\d+/)] });
  });

  it('refuses a key the server rejected, and clears a stale test result when the key changes', async () => {
    const add = page.getByRole('form', { name: 'Add a cloud profile' });
    await add.getByLabel('Name').fill('Wrong key farm');
    await add.getByLabel('Server address').fill(app.host.localNodeUrl!);
    await add.getByLabel('API key').fill('RJ-this-key-is-wrong');
    await add.getByRole('button', { name: 'Test connection' }).click();
    await add.getByText('The server rejected this API key').waitFor({ timeout: 30_000 });
    await add.getByLabel('API key').fill('RJ-this-key-is-wrong-too');
    expect(await add.getByText('The server rejected this API key').count()).toBe(0);
    await add.getByRole('button', { name: 'Add profile' }).click();
    await add.getByText(/rejected this API key \(401\), so it was not saved/).waitFor({ timeout: 30_000 });
    expect((await app.host.handlers['app.getState']({})).profiles.map((p) => p.name)).not.toContain('Wrong key farm');

    const added = await app.host.handlers['profiles.add']({ name: 'Studio farm', baseUrl: app.host.localNodeUrl! });
    const card = page.locator('.card', { has: page.getByRole('radio', { name: /Studio farm/ }) });
    await card.getByLabel('API key').fill('RJ-another-wrong-key');
    await card.getByRole('button', { name: 'Test this key' }).click();
    await card.getByText('The server rejected this API key').waitFor({ timeout: 30_000 });
    await card.getByRole('button', { name: 'Save key' }).click();
    await card.getByText(/rejected this key when you tested it, so it was not saved/).waitFor();
    expect(await card.getByText('The server rejected this API key. Check it').count()).toBe(0);
    expect(await app.host.handlers['profiles.hasKey']({ profileId: added.id })).toBe(false);
    await shootAtEverySize(page, 'settings');
    await shootAtEverySize(page, 'settings-key-refused', card);
    expect(await seriousAxeProblems(page)).toEqual([]);
  });

  it('switches the profile from the header', async () => {
    const picker = page.getByRole('banner').getByLabel('Render on');
    await picker.selectOption({ label: 'Studio farm' });
    await page.locator('[data-state="no-key"]').waitFor({ timeout: 30_000 });
    const state = await app.host.handlers['app.getState']({});
    expect(state.profiles.find((p) => p.id === state.activeProfileId)?.name).toBe('Studio farm');
    await picker.selectOption({ label: 'This computer' });
    await expect.poll(() => page.locator('[data-state="no-key"]').count(), { timeout: 30_000 }).toBe(0);
    expect((await app.host.handlers['app.getState']({})).activeProfileId).toBe('this-computer');
  });
});
