import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { requireRedis } from '../helpers/redis';
import { tempDir } from '../helpers/scene-files';
import { openAppOnWorkers, type AppOnWorkers } from './app-on-workers';
import { ARTIFACTS, type AppUnderTest } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';

const blender = requireBlender();
const redisServer = requireRedis();
const ready = requireChromium() && blender !== null && redisServer !== null;

describe.skipIf(!ready)('Settings lists the render workers when "This computer" renders on workers', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let onWorkers: AppOnWorkers | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
    onWorkers = await openAppOnWorkers(browser, { blender: blender!, redisServer: redisServer! }, 'rd-e2e-workers-');
    app = onWorkers.app;
    await mkdir(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await onWorkers?.close();
    await browser?.close();
  });

  it('shows each worker with its Blender and what it does, at 800, 1024 and 1440 px', async () => {
    const { page, host } = app;
    await page.getByRole('button', { name: 'Settings' }).click();
    const list = page.getByRole('region', { name: 'Render workers' });
    await list.getByText('2 connected').waitFor({ timeout: 30_000 });
    const rows = list.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    const first = await rows.nth(0).innerText();
    expect(first).toContain('render-01');
    expect(first).toMatch(/\d+\.\d+\.\d+/);
    expect(first).toContain('CPU');
    expect(first).toContain('Idle');
    expect(await list.innerText()).toContain('chunks: 0 waiting, 0 rendering');

    const scene = await makeSampleScene(await tempDir('rd-e2e-slow-'), { frames: 8 });
    const [submitted] = await host.handlers['submissions.submit']({ files: [{ path: scene }] });
    if (!submitted?.ok) throw new Error(`submit failed: ${JSON.stringify(submitted)}`);
    const phase = async () => (await host.handlers['submissions.list']({})).find((s) => s.id === submitted.submissionId)?.phase;
    // The sample scene uses a texture that is not on disk: the artist is asked first, and goes on without it.
    await expect.poll(phase, { timeout: 60_000 }).toBe('missing-files');
    await host.handlers['submissions.continue']({ submissionId: submitted.submissionId });
    await expect.poll(phase, { timeout: 60_000 }).toBe('review');
    await host.handlers['submissions.startRender']({ submissionId: submitted.submissionId, renderConfig: { colorManagementPreset: 'default', resolutionPercentage: 400, sampleCount: 2048 } });
    // Both workers render a chunk at once; frames go to the chunks spread across the shot, so each holds frames from all of it.
    const rendering = list.getByText(/^Frames \d+(-\d+)?(, \d+(-\d+)?)*(, on \d+)? of job/);
    await expect.poll(() => rendering.count(), { timeout: 60_000 }).toBe(2);
    const chunkFrames = (await rendering.allInnerTexts()).map((t) => /^Frames ([\d, -]+?)(, on \d+)? of job/.exec(t)![1]);
    expect(new Set(chunkFrames).size, chunkFrames.join(' | ')).toBe(2);
    for (const width of [800, 1024, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await list.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `render-workers-${width}.png`), fullPage: true });
      const box = await list.boundingBox();
      expect(box!.x + box!.width, `the list fits at ${width} px`).toBeLessThanOrEqual(width);
    }
    const job = (await host.handlers['jobs.list']({})).jobs.find((j) => j.fileName === submitted.name);
    if (job) await host.handlers['jobs.cancel']({ jobId: job.id });
  });
});
