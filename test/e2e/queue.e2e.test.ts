import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { localKeyAccount, localNodeDataDir } from '../../src/core/secrets/local-node-key';
import { MemorySecretStore } from '../../src/core/secrets/memory-secret-store';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { runCli } from '../helpers/cli';
import { tempDir } from '../helpers/scene-files';
import { seriousAxeProblems } from './axe-audit';
import { ARTIFACTS, SCREEN_SIZES, dropFiles, openApp, type AppUnderTest } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';

const ready = requireChromium() && requireBlender() !== null;


/** Runs in the page: whether anything scrolls sideways (kept as text: the tests are type-checked without the DOM library). */
const OVERFLOW_SCRIPT = `(() => {
  const wide = [document.documentElement, document.body, ...document.querySelectorAll('.queue-scroll, .queue, .content, .app')]
    .filter((el) => el.scrollWidth > el.clientWidth + 1)
    .map((el) => (el.className || el.tagName) + ': ' + el.scrollWidth + ' > ' + el.clientWidth);
  return wide;
})()`;

const BADGE_X_SCRIPT = `(() => [...document.querySelectorAll('[aria-label="Render queue"] [role="listitem"] .badge')].map((b) => Math.round(b.getBoundingClientRect().left)))()`;

const THUMBS_SCRIPT = `(() => [...document.querySelectorAll('[aria-label="Render queue"] .row-thumb img')].map((img) => img.complete ? img.naturalWidth : 0))()`;

describe.skipIf(!ready)('the queue in Chromium (browser mode, local node, real Blender, the CLI)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let scenes: string;
  let cliConfig: string;
  let cliEnv: NodeJS.ProcessEnv;
  const secrets = new MemorySecretStore();

  const queue = () => page.getByRole('list', { name: 'Render queue' });
  const rowOf = (name: string) => queue().getByRole('listitem', { name });

  async function submitWithCli(scene: string, args: string[]): Promise<string> {
    const result = await runCli(['submit', scene, '-y', '--json', '--new', ...args], { env: cliEnv, timeoutMs: 240_000 });
    if (result.code !== 0) throw new Error(`renderdrop submit failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
    const ids = /"jobId":\s*"([0-9a-f-]+)"/.exec(result.stdout);
    if (!ids) throw new Error(`no job id in:\n${result.stdout}`);
    return ids[1]!;
  }

  /** Uploads a scene, creates its job and validates it with the API alone, as another machine would; leaves it awaiting review. */
  async function validateThroughApi(scene: string, fileName: string): Promise<string> {
    const api = async (method: string, path: string, body?: unknown): Promise<Record<string, string>> => {
      const response = await fetch(`${cliEnv.RENDERDROP_BASE_URL}/api/external/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${cliEnv.RENDERDROP_API_KEY}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      const parsed: unknown = await response.json();
      if (!parsed || typeof parsed !== 'object') throw new Error(`${method} ${path}: not an object`);
      return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
    };
    const bytes = await readFile(scene);
    const target = await api('POST', '/uploads', { fileName, fileType: 'blend' });
    const put = await fetch(target.uploadUrl!, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) }, body: bytes });
    if (!put.ok) throw new Error(`upload: ${put.status}`);
    const job = await api('POST', '/jobs', { slug: target.slug });
    await api('POST', `/jobs/${job.id}/validate`, {});
    return String(job.id);
  }

  async function shoot(name: string): Promise<void> {
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(ARTIFACTS, `${name}-${size.width}.png`) });
    }
  }

  beforeAll(async () => {
    browser = await launchChromium();
    app = await openApp(browser, { secrets });
    page = app.page;
    scenes = await tempDir('rd-e2e-queue-scenes-');
    cliConfig = await mkdtemp(join(tmpdir(), 'rd-e2e-queue-cli-'));
    await mkdir(ARTIFACTS, { recursive: true });
    await app.host.ready();
    const key = await secrets.get(localKeyAccount(localNodeDataDir(app.dir)));
    if (!key) throw new Error('the app made no key for its local node');
    cliEnv = { RENDERDROP_CONFIG_DIR: cliConfig, RENDERDROP_BASE_URL: app.host.localNodeUrl!, RENDERDROP_API_KEY: key };
  });

  afterAll(async () => {
    await app?.close();
    await browser?.close();
    if (cliConfig) await rm(cliConfig, { recursive: true, force: true });
  });

  it('shows a drop zone with a short explanation in the list area of the first screen', async () => {
    const zone = page.getByTestId('empty-drop-zone');
    await zone.waitFor({ timeout: 30_000 });
    expect(await zone.textContent()).toMatch(/Drop Blender scenes/);
    await zone.getByRole('button', { name: 'Choose scene files…' }).waitFor();
    await shoot('queue-empty');
    expect(await seriousAxeProblems(page)).toEqual([]);
  });

  it('shows a job submitted with the CLI without a reload, and its badge follows the render to completed', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const scene = await makeSampleScene(scenes, { frames: 40, name: 'from-the-cli.blend' });
    const before = await page.evaluate('performance.getEntriesByType("navigation").length');
    const jobId = await submitWithCli(scene, ['--samples', '64', '--percentage', '300']);
    const row = rowOf('from-the-cli.blend');
    await row.waitFor({ timeout: 20_000 });
    expect(await row.getAttribute('data-job-id')).toBe(jobId);
    const seen: { status: string; badge: string; percent: number }[] = [];
    let shotMidway = false;
    const deadline = Date.now() + 240_000;
    while (Date.now() < deadline) {
      const status = (await row.getAttribute('data-status')) ?? '';
      const badge = (await row.locator('.badge').textContent()) ?? '';
      const percent = Number(await row.getByRole('progressbar').getAttribute('aria-valuenow'));
      seen.push({ status, badge, percent });
      if (status === 'completed') break;
      if (percent >= 25 && !shotMidway) {
        shotMidway = true;
        await page.screenshot({ path: join(ARTIFACTS, 'queue-rendering-1280.png') });
      }
      await page.waitForTimeout(150);
    }
    expect(seen.at(-1)?.status).toBe('completed');
    const midway = seen.filter((s) => s.percent > 0 && s.percent < 100);
    expect(midway.length, JSON.stringify(seen)).toBeGreaterThan(0);
    expect(midway.filter((s) => s.badge !== 'Rendering' && s.badge !== 'Finalizing'), 'a badge that lags behind the frames').toEqual([]);
    expect(await row.locator('.badge').textContent()).toBe('Completed');
    expect(await page.evaluate('performance.getEntriesByType("navigation").length')).toBe(before);
    expect(await page.getByRole('complementary', { name: 'Job details' }).count()).toBe(0);
    await expect.poll(() => row.getByRole('img', { name: /Warnings: files missing/ }).count()).toBe(1);
  });

  it('shows the latest frame of a job as a real image on its row', async () => {
    const widths = async () => {
      const found = await page.evaluate(THUMBS_SCRIPT);
      return Array.isArray(found) ? found : [];
    };
    await expect.poll(async () => (await widths()).length, { timeout: 30_000 }).toBe(1);
    await expect.poll(async () => (await widths()).every((w) => typeof w === 'number' && w > 0), { timeout: 30_000 }).toBe(true);
  });

  it('estimates a scene from its earlier render before it renders again', async () => {
    const scene = await makeSampleScene(scenes, { frames: 40, name: 'from-the-cli.blend' });
    await validateThroughApi(scene, 'from-the-cli.blend');
    const waiting = queue().locator('[role="listitem"][data-status="validated"]');
    await waiting.first().waitFor({ timeout: 60_000 });
    const estimate = waiting.first().locator('.row-estimate');
    await estimate.waitFor({ timeout: 20_000 });
    expect(await estimate.textContent()).toMatch(/about .*estimate/);
    expect(await estimate.getAttribute('title')).toMatch(/Based on the last render of from-the-cli\.blend/);
  });

  it('keeps rows on one grid without sideways scrolling, from 800 to 1440 px', async () => {
    const scene = await makeSampleScene(scenes, { frames: 3, name: 'a-scene-with-a-very-long-name-for-the-forest-shot-v012.blend' });
    await submitWithCli(scene, ['--samples', '2']);
    const longRow = rowOf('a-scene-with-a-very-long-name-for-the-forest-shot-v012.blend');
    await longRow.waitFor({ timeout: 20_000 });
    await expect.poll(() => longRow.getAttribute('data-status'), { timeout: 60_000 }).toBe('completed');
    await expect.poll(() => queue().getByRole('listitem').count()).toBeGreaterThanOrEqual(3);
    for (const size of [{ width: 800, height: 600 }, { width: 1024, height: 640 }, { width: 1440, height: 900 }, { width: 2560, height: 1200 }]) {
      await page.setViewportSize(size);
      await page.waitForTimeout(300);
      expect(await page.evaluate(OVERFLOW_SCRIPT), `sideways scrolling at ${size.width}x${size.height}`).toEqual([]);
      const xs = await page.evaluate(BADGE_X_SCRIPT);
      expect(Array.isArray(xs) && xs.length >= 3, `badges at ${size.width}`).toBe(true);
      expect(new Set(xs as number[]).size, `badge x at ${size.width}: ${JSON.stringify(xs)}`).toBe(1);
    }
    const name = rowOf('a-scene-with-a-very-long-name-for-the-forest-shot-v012.blend').locator('.middle-ellipsis');
    expect(await name.getAttribute('title')).toBe('a-scene-with-a-very-long-name-for-the-forest-shot-v012.blend');
    await shoot('queue-rows');
    expect(await seriousAxeProblems(page)).toEqual([]);
  });

  it('moves through the rows with the arrow keys and opens details with Enter', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const rows = queue().getByRole('listitem');
    await rows.first().focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate('document.activeElement?.dataset.rowIndex')).toBe('1');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate('document.activeElement?.dataset.rowIndex')).toBe('2');
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => page.evaluate('document.activeElement?.dataset.rowIndex')).toBe('1');
    const name = await page.evaluate('document.activeElement?.getAttribute("aria-label")');
    await page.keyboard.press('Enter');
    const detail = page.getByRole('complementary', { name: 'Job details' });
    await detail.waitFor({ timeout: 10_000 });
    // A row of a scene with several runs is named "shot.blend, run 2 of 3"; the details name the scene.
    await expect.poll(() => detail.textContent(), { timeout: 10_000 }).toContain(String(name).replace(/, run \d+ of \d+$/, ''));
    await page.screenshot({ path: join(ARTIFACTS, 'queue-keyboard-1280.png') });
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await page.waitForTimeout(300);
      const queueWide = await page.evaluate(`[...document.querySelectorAll('.queue-scroll, .queue')].filter((el) => el.scrollWidth > el.clientWidth + 1).length`);
      expect(queueWide, `the queue beside the details scrolls sideways at ${size.width}`).toBe(0);
      await page.screenshot({ path: join(ARTIFACTS, `queue-with-details-${size.width}.png`) });
    }
  });

  it('offers every action of a row in a menu when the row is narrow', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    const row = rowOf('from-the-cli.blend').and(queue().locator('[data-status="completed"]'));
    await row.getByRole('button', { name: 'More actions for from-the-cli.blend' }).click();
    const menu = page.getByRole('menu', { name: 'Actions for from-the-cli.blend' });
    await menu.waitFor();
    const items = await menu.getByRole('menuitem').allTextContents();
    expect(items).toContain('Details');
    expect(items.some((item) => /^Download/.test(item))).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'queue-menu-800.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
  });

  it('shows files on their way as rows of the same list, with the reason a file was refused', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Close' }).first().click().catch(() => undefined);
    await dropFiles(page, [{ name: 'notes.blend', bytes: Buffer.from('these are my notes, not a scene\n') }]);
    const row = rowOf('notes.blend');
    await row.getByRole('alert').waitFor({ timeout: 30_000 });
    expect(await row.getByRole('alert').textContent()).toMatch(/not a Blender file/);
    expect(await page.getByRole('region', { name: 'Files being sent' }).count()).toBe(0);
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await page.waitForTimeout(300);
      expect(await page.evaluate(`[...document.querySelectorAll('.queue-scroll, .queue')].filter((el) => el.scrollWidth > el.clientWidth + 1).length`)).toBe(0);
    }
    await shoot('queue-with-a-refused-file');
    expect(await seriousAxeProblems(page)).toEqual([]);
  });
});

describe.skipIf(!ready)('the queue checks the farm when the window comes back and on Refresh', () => {
  let browser: Browser;
  let app: AppUnderTest;
  const secrets = new MemorySecretStore();

  beforeAll(async () => {
    browser = await launchChromium();
    app = await openApp(browser, { secrets, sync: { activeIntervalMs: 600_000, idleIntervalMs: 600_000 } });
    await app.host.ready();
  });

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  /** A job made with the API alone, as another machine would make it (uploaded, not validated). */
  async function createElsewhere(fileName: string): Promise<string> {
    const key = await secrets.get(localKeyAccount(localNodeDataDir(app.dir)));
    const base = `${app.host.localNodeUrl!}/api/external/v1`;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const target = z.object({ uploadUrl: z.string(), slug: z.string() }).parse(await (await fetch(`${base}/uploads`, { method: 'POST', headers, body: JSON.stringify({ fileName, fileType: 'blend' }) })).json());
    const bytes = await readFile(await makeSampleScene(await tempDir('rd-e2e-elsewhere-'), {}));
    await fetch(target.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) }, body: bytes });
    const job = z.object({ id: z.string() }).parse(await (await fetch(`${base}/jobs`, { method: 'POST', headers, body: JSON.stringify({ slug: target.slug }) })).json());
    return job.id;
  }

  it('brings in a job made elsewhere when the window gets the focus back, and when Refresh is pressed', async () => {
    const { page } = app;
    await page.getByTestId('empty-drop-zone').waitFor({ timeout: 30_000 });
    const first = await createElsewhere('back-in-view.blend');
    await page.waitForTimeout(1_500);
    expect(await page.locator(`[data-job-id="${first}"]`).count(), 'no timer is due for ten minutes').toBe(0);
    await page.evaluate(`window.dispatchEvent(new Event('focus'))`);
    await page.locator(`[data-job-id="${first}"]`).waitFor({ timeout: 10_000 });

    const second = await createElsewhere('after-refresh.blend');
    await page.waitForTimeout(1_500);
    expect(await page.locator(`[data-job-id="${second}"]`).count()).toBe(0);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.locator(`[data-job-id="${second}"]`).waitFor({ timeout: 10_000 });
    await expect.poll(() => page.locator('.sync-text').textContent()).toMatch(/Up to date|Updated \d+ s ago/);
  });
});

