import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { requireRedis } from '../helpers/redis';
import { tempDir } from '../helpers/scene-files';
import { startWorkerProcess, stopWorker } from '../helpers/workers';
import { seriousAxeProblems } from './axe-audit';
import { openAppOnWorkers, type AppOnWorkers } from './app-on-workers';
import { dropFiles } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';

const blender = requireBlender();
const redisServer = requireRedis();
const ready = requireChromium() && blender !== null && redisServer !== null;
/** Where the screenshots of this test go, to be looked at. */
const SHOTS = process.env.RENDERDROP_SHOTS_DIR ?? join(process.env.TMPDIR ?? '/tmp', 'renderdrop-studio-farm');
const HORIZONTAL_OVERFLOW = `document.documentElement.scrollWidth - document.documentElement.clientWidth`;
const WIDTHS = [800, 1024, 1440] as const;

/** Looks at the page at 800, 1024 and 1440 px: no sideways scrolling, a screenshot each, then axe on `include`. */
async function atEveryWidth(page: Page, name: string, include?: string, show?: Locator): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 800 ? 600 : 900 });
    await page.waitForTimeout(200);
    await show?.scrollIntoViewIfNeeded();
    expect(await page.evaluate(HORIZONTAL_OVERFLOW), `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`) });
  }
  expect(await seriousAxeProblems(page, include ? { include } : {})).toEqual([]);
}

describe.skipIf(!ready)("the app on a studio's farm: This computer's node on Redis with render-01 (big-ram) and render-02", () => {
  let browser: Browser;
  let onWorkers: AppOnWorkers | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
    await mkdir(SHOTS, { recursive: true });
    onWorkers = await openAppOnWorkers(browser, { blender: blender!, redisServer: redisServer!, tags: { 'render-01': ['big-ram'] } }, 'rd-e2e-studio-');
  }, 180_000);
  afterAll(async () => {
    await onWorkers?.close();
    await browser?.close();
  });

  it('lists every worker live on the Workers page, and blocks and unblocks one for every job', async () => {
    const { page } = onWorkers!.app;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Workers' }).click();
    const list = page.getByRole('region', { name: 'Render workers' });
    await list.getByText('2 workers connected').waitFor({ timeout: 30_000 });
    const first = list.locator('tr[data-worker="render-01"]');
    const second = list.locator('tr[data-worker="render-02"]');
    expect(await first.innerText()).toMatch(/render-01[\s\S]*big-ram[\s\S]*\d+\.\d+\.\d+[\s\S]*Idle/);
    expect(await second.innerText()).toMatch(/render-02[\s\S]*none[\s\S]*Idle/);
    await atEveryWidth(page, 'workers', 'main');

    await list.getByRole('button', { name: 'Block render-02 for every job' }).click();
    await list.getByRole('button', { name: 'Unblock render-02' }).waitFor({ timeout: 10_000 });
    expect(await second.innerText()).toContain('kept from every job');
    await page.screenshot({ path: join(SHOTS, 'workers-blocked-1280.png') });
    await list.getByRole('button', { name: 'Unblock render-02' }).click();
    await list.getByRole('button', { name: 'Block render-02 for every job' }).waitFor({ timeout: 10_000 });
    expect(await second.innerText()).not.toContain('kept from');
  }, 120_000);

  it('takes a priority and needed tags in the review, shows why the job waits on its row, and changes its priority from the row menu', async () => {
    const { page, host } = onWorkers!.app;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Queue' }).click();
    const scene = await makeSampleScene(await tempDir('rd-e2e-urgent-'), { missingTexture: false, frames: 2, name: 'urgent.blend' });
    await dropFiles(page, [{ name: 'urgent.blend', bytes: await readFile(scene) }]);
    const sheet = page.getByRole('dialog', { name: 'Review urgent.blend' });
    await sheet.waitFor({ timeout: 120_000 });
    const priority = sheet.getByLabel('Priority', { exact: true });
    await priority.waitFor({ timeout: 60_000 });
    expect(await priority.inputValue()).toBe('');
    await sheet.getByRole('button', { name: 'High' }).click();
    expect(await priority.inputValue()).toBe('75');
    const tags = sheet.getByLabel('Needs worker tags');
    expect(await sheet.getByText(/Workers carry: big-ram\./).count()).toBe(1);
    await tags.fill('big ram!');
    await sheet.getByText(/"ram!" is not a tag/).waitFor();
    expect(await sheet.getByRole('button', { name: /^Start render/ }).isDisabled()).toBe(true);
    await tags.fill('GPU');
    await atEveryWidth(page, 'review-priority', '[role="dialog"]', tags);
    await sheet.getByRole('button', { name: /^Start render/ }).click();

    const jobIdOf = async () => (await host.handlers['submissions.list']({})).find((s) => s.fileName === 'urgent.blend')?.jobId ?? null;
    await expect.poll(jobIdOf, { timeout: 30_000 }).not.toBeNull();
    const jobId = (await jobIdOf())!;
    await expect.poll(async () => (await host.handlers['jobs.get']({ jobId })).summary.waiting?.reason ?? null, { timeout: 60_000 }).toMatch(/gpu/);
    const summary = (await host.handlers['jobs.get']({ jobId })).summary;
    expect(summary).toMatchObject({ priority: 75, requires: ['gpu'] });
    expect(summary.warnings).not.toContain('no render worker connected');

    const row = page.locator(`[role="listitem"][data-job-id="${jobId}"]`);
    await row.getByTestId('row-waiting').getByText(summary.waiting!.reason!).waitFor({ timeout: 30_000 });
    await atEveryWidth(page, 'queue-waiting', 'main');

    await page.setViewportSize({ width: 1280, height: 800 });
    await row.getByRole('button', { name: /More actions/ }).click();
    await page.getByRole('menuitem', { name: 'Priority…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Priority of urgent.blend' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Priority (0-100)').inputValue()).toBe('75');
    await dialog.getByRole('button', { name: 'Urgent' }).click();
    await atEveryWidth(page, 'priority-dialog', '[role="dialog"]');
    await dialog.getByRole('button', { name: 'Set priority' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await host.handlers['jobs.get']({ jobId })).summary.priority, { timeout: 15_000 }).toBe(100);

    await row.getByRole('button', { name: /^Details of/ }).click();
    const details = page.getByRole('complementary', { name: 'Job details' });
    await details.getByTestId('detail-priority').getByText('100 (urgent)').waitFor({ timeout: 15_000 });
    await details.getByLabel('Keep a worker from this job').selectOption('render-02');
    await details.getByRole('button', { name: 'Block for this job' }).click();
    await details.getByText('render-02 is kept from this job.').waitFor({ timeout: 10_000 });
    const kept = await host.handlers['workers.list']({});
    expect(kept.supported && kept.view.mode === 'distributed' ? kept.view.blocks : null).toEqual([expect.objectContaining({ worker: 'render-02', jobId, by: 'hand' })]);
    await atEveryWidth(page, 'details-workers', 'aside', details.getByTestId('detail-priority'));
    await page.setViewportSize({ width: 1280, height: 800 });
    await details.getByRole('button', { name: 'Let render-02 render it' }).click();
    await details.getByText('render-02 is kept from this job.').waitFor({ state: 'detached', timeout: 10_000 });
    await details.getByRole('button', { name: 'Close the details' }).click();

    // A worker with the tag connects: the job renders there, and neither the words nor a mark stay on its row.
    const tagged = await startWorkerProcess({ redis: onWorkers!.redis.url, node: onWorkers!.nodeUrl, name: 'render-03', cacheDir: join(await tempDir('rd-e2e-gpu-'), 'cache'), blender: blender!, threads: 1, tags: ['gpu'] });
    onWorkers!.workers.push(tagged);
    await expect.poll(async () => (await host.handlers['jobs.get']({ jobId })).summary.status, { timeout: 120_000 }).toBe('completed');
    await row.getByTestId('row-waiting').waitFor({ state: 'detached', timeout: 15_000 });
    expect(await row.locator('.warning-mark').count()).toBe(0);
    expect((await host.handlers['jobs.frames']({ jobId })).renderedBy).toBe('render-03 frames 1-2');
    await stopWorker(tagged);
  }, 300_000);

  it('says when a waiting job starts, from the work ahead of it on the one worker that can take it, and who rendered which frames', async () => {
    const { host, page } = onWorkers!.app;
    const scenes = await tempDir('rd-e2e-ahead-');
    const long = await makeSampleScene(scenes, { frames: 8, missingTexture: false, everySample: true, name: 'long.blend' });
    const next = await makeSampleScene(scenes, { frames: 2, missingTexture: false, name: 'next.blend' });
    const start = async (path: string, name: string, samples: number) => {
      const [submitted] = await host.handlers['submissions.submit']({ files: [{ path }] });
      if (!submitted?.ok) throw new Error(`submit failed: ${JSON.stringify(submitted)}`);
      const phase = async () => (await host.handlers['submissions.list']({})).find((s) => s.id === submitted.submissionId)?.phase;
      await expect.poll(phase, { timeout: 120_000 }).toBe('review');
      await host.handlers['submissions.startRender']({ submissionId: submitted.submissionId, renderConfig: { colorManagementPreset: 'default', requires: ['big-ram'], sampleCount: samples, resolutionPercentage: 200 } });
      const jobIdOf = async () => (await host.handlers['submissions.list']({})).find((s) => s.fileName === name)?.jobId ?? null;
      await expect.poll(jobIdOf, { timeout: 30_000 }).not.toBeNull();
      return (await jobIdOf())!;
    };
    const first = await start(long, 'long.blend', 1024);
    await expect.poll(async () => (await host.handlers['jobs.get']({ jobId: first })).summary.completedFrames, { timeout: 120_000 }).toBeGreaterThan(0);
    const second = await start(next, 'next.blend', 16);
    await expect.poll(async () => (await host.handlers['jobs.get']({ jobId: second })).summary.waiting?.startsInSeconds ?? null, { timeout: 60_000 }).not.toBeNull();
    const row = page.locator(`[role="listitem"][data-job-id="${second}"]`);
    await page.getByRole('button', { name: 'Queue' }).click();
    await row.getByTestId('row-time').getByText(/^in (~\d+ (min|h)|< 1 min)/).waitFor({ timeout: 30_000 });
    await atEveryWidth(page, 'queue-starts-in', 'main');

    await page.getByRole('button', { name: 'Workers' }).click();
    const list = page.getByRole('region', { name: 'Render workers' });
    await list.locator('tr[data-worker="render-01"]').getByText(/^Rendering “long\.blend” frames \d+(-\d+)?/).waitFor({ timeout: 30_000 });
    expect(await list.locator('tr[data-worker="render-02"]').innerText()).toContain('Idle');
    await atEveryWidth(page, 'workers-rendering', 'main');
    await page.getByRole('button', { name: 'Queue' }).click();

    await expect.poll(async () => (await host.handlers['jobs.get']({ jobId: first })).summary.status, { timeout: 300_000 }).toBe('completed');
    const frames = await host.handlers['jobs.frames']({ jobId: first });
    expect(frames.renderedBy).toBe('render-01 frames 1-8');
    await page.locator(`[role="listitem"][data-job-id="${first}"]`).getByRole('button', { name: /^Details of/ }).click();
    await page.getByTestId('rendered-by').getByText('render-01 frames 1-8').waitFor({ timeout: 30_000 });
    await host.handlers['jobs.cancel']({ jobId: second }).catch(() => undefined);
  }, 600_000);
});
