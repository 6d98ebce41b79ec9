import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { localKeyAccount, localNodeDataDir } from '../../src/core/secrets/local-node-key';
import { MemorySecretStore } from '../../src/core/secrets/memory-secret-store';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { tempDir } from '../helpers/scene-files';
import { seriousAxeProblems } from './axe-audit';
import { ARTIFACTS, openApp, type AppUnderTest } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';
import { SCREEN_SIZES } from './screen-sizes';

const ready = requireChromium() && requireBlender() !== null;

/** Every size the screens are looked at, the largest included. */
const SIZES = SCREEN_SIZES;

/**
 * Runs in the page: what collides or is cut in the queue's rows (kept as text: the tests are
 * type-checked without the DOM library). A row's name must end before its badge starts, a row's
 * button must show its whole label, and nothing may scroll sideways.
 */
const LAYOUT_SCRIPT = `(() => {
  const problems = [];
  const box = (el) => el.getBoundingClientRect();
  for (const row of document.querySelectorAll('[aria-label="Render queue"] [role="listitem"]')) {
    const name = row.querySelector('.row-name-cell');
    const badge = row.querySelector('.row-status .badge');
    if (name && badge) {
      const n = box(name), b = box(badge);
      const sameLine = n.top < b.bottom && b.top < n.bottom;
      if (sameLine && n.right > b.left + 0.5) problems.push('name over badge: ' + row.getAttribute('aria-label'));
    }
    const text = row.querySelector('.row-name .middle-ellipsis');
    if (text && text.scrollWidth > text.clientWidth + 1) problems.push('name spills out: ' + row.getAttribute('aria-label'));
    for (const button of row.querySelectorAll('button.row-primary')) {
      if (button.offsetParent !== null && button.scrollWidth > button.clientWidth + 1) problems.push('cut: ' + button.textContent + ' in ' + row.getAttribute('aria-label'));
    }
  }
  for (const el of [document.documentElement, document.body, ...document.querySelectorAll('.queue-scroll, .queue, .content, .app, .detail')]) {
    if (el.scrollWidth > el.clientWidth + 1) problems.push('sideways: ' + (el.className || el.tagName) + ' ' + el.scrollWidth + ' > ' + el.clientWidth);
  }
  return problems;
})()`;

/** Runs in the page: starts dragging a file over the window, as a browser does. */
const DRAG_SCRIPT = `(() => {
  const transfer = new DataTransfer();
  transfer.items.add(new File([new Uint8Array(4)], 'scene.blend'));
  window.dispatchEvent(new DragEvent('dragenter', { bubbles: true, cancelable: true, dataTransfer: transfer }));
})()`;

/** Runs in the page: ends the drag without a drop. */
const DRAG_END_SCRIPT = `(() => {
  const transfer = new DataTransfer();
  transfer.items.add(new File([new Uint8Array(4)], 'scene.blend'));
  window.dispatchEvent(new DragEvent('dragleave', { bubbles: true, cancelable: true, dataTransfer: transfer }));
})()`;

describe.skipIf(!ready)('a tidy queue in Chromium (browser mode, local node, real Blender)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let scenes: string;
  let api: (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;
  const secrets = new MemorySecretStore();

  const queue = () => page.getByRole('list', { name: 'Render queue' });
  const rowsOf = (name: string) => queue().getByRole('listitem', { name });
  const detail = () => page.getByRole('complementary', { name: 'Job details' });

  /** Uploads a scene and validates it with the API alone, as another machine would; leaves it awaiting review. */
  async function validateThroughApi(scene: string, fileName: string): Promise<string> {
    const bytes = await readFile(scene);
    const target = await api('POST', '/uploads', { fileName, fileType: 'blend' });
    const put = await fetch(String(target.uploadUrl), { method: 'PUT', headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) }, body: bytes });
    if (!put.ok) throw new Error(`upload: ${put.status}`);
    const job = await api('POST', '/jobs', { slug: target.slug });
    await api('POST', `/jobs/${String(job.id)}/validate`, {});
    return String(job.id);
  }

  /** A job's status as the node tells it. */
  async function statusOnTheNode(jobId: string): Promise<unknown> {
    const { data } = await api('GET', `/jobs/${jobId}`);
    return data && typeof data === 'object' && 'status' in data ? data.status : null;
  }

  /** Sends a scene from the page and starts its render from the review with `samples` (few by default). */
  async function renderFromPage(scene: string, fileName: string, samples = '2'): Promise<void> {
    await page.getByTestId('file-input').setInputFiles(scene);
    const sheet = page.getByRole('dialog', { name: new RegExp(`Review ${fileName.replace(/\./g, '\\.')}`) });
    await sheet.waitFor({ timeout: 120_000 });
    await sheet.getByLabel('Samples').fill(samples);
    await sheet.getByRole('button', { name: 'Start render' }).click();
    await sheet.waitFor({ state: 'detached', timeout: 30_000 });
  }

  beforeAll(async () => {
    browser = await launchChromium();
    app = await openApp(browser, { secrets });
    page = app.page;
    scenes = await tempDir('rd-e2e-tidy-');
    await mkdir(ARTIFACTS, { recursive: true });
    await app.host.ready();
    const key = await secrets.get(localKeyAccount(localNodeDataDir(app.dir)));
    if (!key) throw new Error('the app made no key for its local node');
    api = async (method, path, body) => {
      const response = await fetch(`${app.host.localNodeUrl!}/api/external/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as Record<string, unknown>;
    };
  });

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  it('covers the empty screen while a file is dragged over it, instead of mixing the two texts', async () => {
    await page.getByTestId('empty-drop-zone').waitFor({ timeout: 30_000 });
    await page.evaluate(DRAG_SCRIPT);
    const overlay = page.locator('.drop-overlay');
    await overlay.waitFor();
    const background = await page.evaluate('getComputedStyle(document.querySelector(".drop-overlay")).backgroundColor');
    expect(background, 'an overlay the empty screen shows through').not.toMatch(/rgba\(.*,\s*0?\.\d+\)|color\(.*\/\s*0?\.\d+\)/);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.screenshot({ path: join(ARTIFACTS, `tidy-drop-overlay-${size.width}.png`) });
    }
    await page.evaluate(DRAG_END_SCRIPT);
    await overlay.waitFor({ state: 'detached' });
  });

  it('offers Browse… for the download folder, with the app\'s folder picker', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Settings' }).click();
    const renders = join(app.dir, 'renders');
    await mkdir(renders);
    await page.getByRole('button', { name: 'Browse…' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose the download folder' });
    await picker.waitFor();
    await picker.getByRole('navigation', { name: 'Folder' }).getByRole('button').first().click();
    await picker.getByRole('option', { name: /^renders/ }).click();
    await picker.getByRole('navigation', { name: 'Folder' }).getByText('renders').waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'tidy-download-folder-picker-1280.png') });
    expect(await seriousAxeProblems(page, { include: '.file-browser' })).toEqual([]);
    await picker.getByRole('button', { name: 'Use this folder' }).click();
    await picker.waitFor({ state: 'detached' });
    await expect.poll(async () => (await app.host.handlers['settings.get']({})).downloadDir).toBe(renders);
    expect(await page.getByLabel('Download folder').inputValue()).toBe(renders);
    await app.host.handlers['settings.update']({ downloadDir: app.downloads });
    await page.getByRole('button', { name: 'Queue' }).click();
  });

  it('groups three runs of one scene under the latest, tells them apart, and folds them away', async () => {
    const shot = await makeSampleScene(scenes, { frames: 3, missingTexture: false, name: 'shot.blend' });
    await renderFromPage(shot, 'shot.blend');
    await rowsOf('shot.blend').getByText('Downloaded').waitFor({ timeout: 180_000 });
    const long = await makeSampleScene(scenes, { frames: 40, missingTexture: false, name: 'a-scene-with-a-very-long-name-for-the-forest-shot-v012.blend' });
    // Enough samples that it is still rendering when canceled, however fast the machine.
    await renderFromPage(long, 'a-scene-with-a-very-long-name-for-the-forest-shot-v012.blend', '4096');
    const longRow = rowsOf('a-scene-with-a-very-long-name-for-the-forest-shot-v012.blend');
    await expect.poll(() => longRow.getAttribute('data-status'), { timeout: 120_000 }).toBe('rendering');
    await longRow.getByRole('button', { name: /^Cancel / }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel render' }).click();
    await expect.poll(() => longRow.getAttribute('data-status'), { timeout: 60_000 }).toBe('canceled');
    await validateThroughApi(shot, 'shot.blend');
    await validateThroughApi(shot, 'shot.blend');

    await expect.poll(() => rowsOf('shot.blend').count(), { timeout: 60_000 }).toBe(3);
    const names = await rowsOf('shot.blend').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label')));
    expect(names).toEqual(['shot.blend, run 3 of 3', 'shot.blend, run 2 of 3', 'shot.blend, run 1 of 3']);
    const toggle = queue().getByRole('button', { name: '3 runs of shot.blend' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await toggle.click();
    await expect.poll(() => rowsOf('shot.blend').count()).toBe(1);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await expect.poll(() => rowsOf('shot.blend').count()).toBe(3);
  });

  it('looks right with the details open and closed at every size, with nothing colliding or cut, axe clean', async () => {
    const problems: string[] = [];
    const shoot = async (state: string) => {
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(ARTIFACTS, `tidy-queue-${state}-${size.width}.png`) });
        const found = await page.evaluate(LAYOUT_SCRIPT);
        if (Array.isArray(found)) problems.push(...found.map((p) => `${state} ${size.width}: ${String(p)}`));
        for (const p of await seriousAxeProblems(page)) problems.push(`${state} ${size.width}: axe ${p.id} ${p.targets.join(', ')}`);
      }
    };
    await shoot('closed');
    const row = rowsOf('shot.blend, run 1 of 3');
    const jobId = await row.getAttribute('data-job-id');
    await row.getByRole('button', { name: 'Details of shot.blend' }).click();
    await detail().getByRole('region', { name: 'Frames in your folder' }).getByText('All 3 frames are in your folder.').waitFor({ timeout: 30_000 });
    await shoot('open');
    expect(problems).toEqual([]);

    await page.setViewportSize({ width: 1280, height: 800 });
    await detail().getByRole('button', { name: 'Close the details' }).click();
    await expect.poll(() => page.evaluate('document.activeElement?.getAttribute("data-job-id") ?? document.activeElement?.tagName')).toBe(jobId);
  });

  it('removes a job from the list, asked first, and it stays removed after a reload', async () => {
    const row = rowsOf('shot.blend, run 1 of 3');
    const jobId = await row.getAttribute('data-job-id');
    await row.getByRole('button', { name: 'More actions for shot.blend, run 1 of 3' }).click();
    await page.getByRole('menuitem', { name: 'Remove from list' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Remove shot.blend from the list?' });
    await ask.waitFor();
    expect(await ask.textContent()).toMatch(/Frames already in your download folder stay/);
    await ask.getByRole('button', { name: 'Remove from list' }).click();
    await expect.poll(() => rowsOf('shot.blend').count()).toBe(2);
    await page.reload();
    await queue().waitFor({ timeout: 30_000 });
    await expect.poll(() => rowsOf('shot.blend').count(), { timeout: 30_000 }).toBe(2);
    expect(await queue().locator(`[data-job-id="${jobId}"]`).count()).toBe(0);
    expect(await statusOnTheNode(jobId!), 'the farm keeps the job').toBe('completed');
  });

  it('removes several jobs at once from the bulk bar, canceling the ones still waiting first', async () => {
    const runs = await rowsOf('shot.blend').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-job-id')));
    expect(runs).toHaveLength(2);
    await queue().getByRole('checkbox', { name: 'Choose shot.blend, run 2 of 2' }).check();
    await queue().getByRole('checkbox', { name: 'Choose shot.blend, run 1 of 2' }).check();
    const bar = page.getByRole('toolbar', { name: 'Chosen jobs' });
    await bar.getByText('2 jobs chosen').waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'tidy-queue-bulk-1280.png') });
    expect(await seriousAxeProblems(page)).toEqual([]);
    await bar.getByRole('button', { name: 'Remove from list' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Remove 2 jobs from the list?' });
    expect(await ask.textContent()).toMatch(/2 jobs still at work are canceled first/);
    await ask.getByRole('button', { name: 'Remove from list' }).click();
    await expect.poll(() => rowsOf('shot.blend').count()).toBe(0);
    await expect.poll(() => bar.count()).toBe(0);
    await page.reload();
    await rowsOf('a-scene-with-a-very-long-name-for-the-forest-shot-v012.blend').waitFor({ timeout: 30_000 });
    expect(await rowsOf('shot.blend').count()).toBe(0);
    for (const id of runs) expect(await statusOnTheNode(id!)).toBe('canceled');
  });
});
