import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { localKeyAccount, localNodeDataDir } from '../../src/core/secrets/local-node-key';
import { MemorySecretStore } from '../../src/core/secrets/memory-secret-store';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { tempDir } from '../helpers/scene-files';
import { blenderProcesses } from '../helpers/workers';
import { seriousAxeProblems } from './axe-audit';
import { ARTIFACTS, SCREEN_SIZES, openApp, type AppUnderTest } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';

const ready = requireChromium() && requireBlender() !== null;

/** Screenshots with `what` in view at each width, each checked for sideways scrolling; notifications dismissed first. */
async function shootAtWidths(page: Page, what: Locator, name: string): Promise<void> {
  const dismiss = page.getByRole('button', { name: /^Dismiss: / });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  for (const { width, height } of SCREEN_SIZES) {
    await page.setViewportSize({ width, height });
    await what.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`) });
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), `no sideways scrolling at ${width} px`).toBe(true);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe.skipIf(!ready)('"Render again" and "Retry failed frames" in Chromium (browser mode, local node, real Blender)', () => {
  const secrets = new MemorySecretStore();
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  /** GET a job of the local node, as another client would. */
  let nodeJob: (id: string) => Promise<any>;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await openApp(browser, { secrets });
    page = app.page;
    await mkdir(ARTIFACTS, { recursive: true });
    await app.host.ready();
    const key = await secrets.get(localKeyAccount(localNodeDataDir(app.dir)));
    nodeJob = async (id) => ((await (await fetch(`${app.host.localNodeUrl!}/api/external/v1/jobs/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: any }).data;
  });
  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  /** Drop a scene, set the review's fields, start it; its row. */
  async function render(fileName: string, frames: number, fields: Record<string, string>): Promise<Locator> {
    const scene = await makeSampleScene(await tempDir('rd-e2e-requeue-'), { frames, missingTexture: false, name: fileName });
    await page.getByTestId('file-input').setInputFiles(scene);
    const sheet = page.getByRole('dialog', { name: new RegExp(`Review ${fileName.replace('.', '\\.')}`) });
    await sheet.waitFor({ timeout: 120_000 });
    for (const [label, value] of Object.entries(fields)) await sheet.getByLabel(label).fill(value);
    await sheet.getByRole('button', { name: 'Start render' }).click();
    return page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name: fileName });
  }

  /** The job id a queue row shows, once the farm made the job. */
  async function jobIdOf(row: Locator): Promise<string> {
    let id: string | null = null;
    await expect.poll(async () => (id = await row.getAttribute('data-job-id')), { timeout: 120_000 }).toBeTruthy();
    return id!;
  }

  it('picks frames 2-3 in the frame strip (click, Shift-click) and renders them again inside the job', async () => {
    const row = await render('again.blend', 4, { Samples: '2' });
    await row.getByText('Downloaded').waitFor({ timeout: 180_000 });
    const jobId = await jobIdOf(row);
    await row.getByRole('button', { name: 'Details of again.blend' }).click();
    const detail = page.getByRole('complementary', { name: 'Job details' });
    const strip = detail.getByRole('region', { name: 'Frames', exact: true });
    await strip.getByRole('button', { name: 'Pick frames to render again' }).click();
    await strip.getByRole('button', { name: 'Frame 2, rendered' }).click();
    await strip.getByRole('button', { name: 'Frame 3, rendered' }).click({ modifiers: ['Shift'] });
    await strip.getByText('2 frames picked: 2-3').waitFor();
    expect(await strip.getByRole('button', { name: 'Frame 2, rendered' }).getAttribute('aria-pressed')).toBe('true');
    expect(await strip.getByRole('button', { name: 'Frame 1, rendered' }).getAttribute('aria-pressed')).toBe('false');
    await shootAtWidths(page, strip, 'requeue-picked-frames');
    expect(await seriousAxeProblems(page, { include: '.frames' })).toEqual([]);
    expect((await strip.textContent()) ?? '').not.toMatch(/requeue|jobs\.|frameRanges/);

    await strip.getByRole('button', { name: 'Render again' }).click();
    await page.getByText('Rendering frames 2-3 of again.blend again').waitFor({ timeout: 30_000 });
    await strip.getByRole('button', { name: 'Pick frames to render again' }).waitFor();
    await expect.poll(async () => (await nodeJob(jobId)).timeline.filter((e: { status: string }) => e.status === 'completed').length, { timeout: 180_000, interval: 500 }).toBe(2);
    const job = await nodeJob(jobId);
    expect(job.timeline.find((e: { detail?: string }) => e.detail)).toMatchObject({ status: 'booting', detail: 'requeued frames 2-3' });
    await detail.getByRole('region', { name: 'Timeline' }).getByText('frames 2-3 rendered again').waitFor({ timeout: 30_000 });
    await row.getByText(/Downloaded|Completed/).first().waitFor({ timeout: 60_000 });
  });

  it('offers "Retry failed frames" on the row of a render whose Blender crashed, and renders the frames it lacks in the same job', async () => {
    const row = await render('crashed.blend', 6, { Samples: '64', 'Resolution %': '400' });
    const jobId = await jobIdOf(row);
    await expect.poll(async () => (await nodeJob(jobId)).progress?.completedFrames ?? 0, { timeout: 180_000, interval: 100 }).toBeGreaterThan(0);
    const pids = await blenderProcesses(jobId);
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    const failed = await expect.poll(async () => (await nodeJob(jobId)).status, { timeout: 60_000 }).toBe('failed').then(() => nodeJob(jobId));
    expect(failed.progress.completedFrames).toBeLessThan(6);

    const retry = row.getByRole('button', { name: 'Retry failed frames of crashed.blend' });
    const close = page.getByRole('button', { name: 'Close the details' });
    if ((await close.count()) > 0) await close.click();
    await retry.waitFor({ timeout: 30_000 });
    await row.getByRole('button', { name: 'More actions for crashed.blend' }).click();
    await page.getByRole('menuitem', { name: 'Retry failed frames' }).waitFor();
    await page.keyboard.press('Escape');
    await shootAtWidths(page, row, 'requeue-failed-row');
    expect(await seriousAxeProblems(page, { include: '[aria-label="Render queue"]' })).toEqual([]);
    await retry.click();
    await page.getByText(/^Rendering frames? [\d, -]+ of crashed\.blend again$/).waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await nodeJob(jobId)).status, { timeout: 240_000, interval: 500 }).toBe('completed');
    const done = await nodeJob(jobId);
    expect(done.progress).toEqual({ completedFrames: 6, totalFrames: 6 });
    expect(done.failedReason).toBeNull();
    expect(done.timeline.find((e: { detail?: string }) => e.detail)?.detail).toMatch(/^requeued frames? /);
    await row.getByText(/Downloaded|Completed/).first().waitFor({ timeout: 60_000 });
  });
});
