import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { Job } from '../../src/shared/api/job';
import { FakeApi } from '../helpers/fake-api-server';
import { seriousAxeProblems } from './axe-audit';
import { ARTIFACTS, openApp, type AppUnderTest } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';
import { SCREEN_SIZES } from './screen-sizes';

const ready = requireChromium();

describe.skipIf(!ready)('the Light theme (Chromium, browser mode, a farm with three runs of one scene)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let farm: FakeApi;

  beforeAll(async () => {
    browser = await launchChromium();
    farm = await FakeApi.start();
    const base = Date.parse('2026-01-10T10:00:00Z');
    for (const [i, frames] of [10, 24, 10].entries()) {
      const at = new Date(base + i * 3_600_000).toISOString();
      const job: Job = { id: `0000000${i}-aaaa-4bbb-8ccc-00000000000${i}`, status: 'completed', workspaceId: 'w-1', createdAt: at, updatedAt: at, sceneFile: { fileName: 'shot010.blend' } };
      farm.jobs.set(job.id, { job, slug: `slug-${i}`, completed: frames, total: frames, reads: 0, validateBodies: [], renderBodies: [] });
    }
    app = await openApp(browser, { localNode: false });
    await app.host.handlers['settings.update']({ theme: 'light', autoDownload: false });
    const profile = await app.host.handlers['profiles.add']({ name: 'Studio farm', baseUrl: farm.server.url, apiKey: 'RJ-light-key-123' });
    await app.host.handlers['profiles.use']({ profileId: profile.id });
    await mkdir(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await app?.close();
    await farm?.server.close();
    await browser?.close();
  });

  it('passes axe\'s contrast rules (active tab, Completed badges), and each run has its own accessible name', async () => {
    const page = app.page;
    await page.reload();
    const queue = page.getByRole('list', { name: 'Render queue' });
    await queue.getByText('Completed').first().waitFor({ timeout: 180_000 });
    const toggle = queue.getByRole('button', { name: '3 runs of shot010.blend' });
    if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
    await expect.poll(() => queue.getByRole('listitem').count()).toBe(3);
    const names = await queue.getByRole('button', { name: /^Details of shot010\.blend/ }).evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
    expect(names).toHaveLength(3);
    expect(new Set(names).size).toBe(3);
    expect(names[0]).toMatch(/^Details of shot010\.blend, run 3 of 3: (\d+ frames, )?sent .+, job 00000002$/);
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await page.waitForTimeout(150);
      await page.screenshot({ path: join(ARTIFACTS, `light-queue-${size.width}.png`) });
    }
    expect(await seriousAxeProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'light-settings-1024.png') });
    expect(await seriousAxeProblems(page)).toEqual([]);
  });
});
