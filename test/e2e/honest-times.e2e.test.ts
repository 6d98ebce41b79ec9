import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RenderConfig } from '../../src/shared/api/render-config';
import type { JobSummary } from '../../src/shared/contract/job-views';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { tempDir } from '../helpers/scene-files';
import { ARTIFACTS, openApp, type AppUnderTest } from './app-under-test';
import { seriousAxeProblems } from './axe-audit';
import { launchChromium, requireChromium } from './chromium';
import { SCREEN_SIZES } from './screen-sizes';

const ready = requireChromium() && requireBlender() !== null;
const SIZES = SCREEN_SIZES;
const FRAMES_B = 10;

/** "1 min 05 s" or "12 s" in seconds; null for anything else. */
function secondsOf(text: string): number | null {
  const minutes = /(\d+) min (\d+) s/.exec(text);
  if (minutes) return Number(minutes[1]) * 60 + Number(minutes[2]);
  const seconds = /(\d+) s/.exec(text);
  return seconds ? Number(seconds[1]) : null;
}

describe.skipIf(!ready)('honest times: waiting in line, then time left from its own frame rate (browser mode, local node, real Blender)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let scenes: string;

  const rowOf = (name: string) => page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name });
  const timeOf = (name: string) => rowOf(name).getByTestId('row-time');

  async function submit(path: string, renderConfig: RenderConfig): Promise<void> {
    const [result] = await app.host.handlers['submissions.submit']({ files: [{ path }], renderConfig });
    expect(result?.ok).toBe(true);
  }

  async function summaryOf(name: string): Promise<JobSummary | null> {
    const found = await app.host.handlers['jobs.list']({ search: name });
    return found.jobs.find((j) => j.fileName === name) ?? null;
  }

  async function openDetails(name: string): Promise<Locator> {
    await rowOf(name).getByRole('button', { name: `Details of ${name}` }).click();
    const detail = page.getByRole('complementary', { name: 'Job details' });
    await detail.getByRole('heading', { name }).waitFor();
    return detail;
  }

  async function screenshots(name: string): Promise<void> {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.waitForTimeout(150);
      await page.screenshot({ path: join(ARTIFACTS, `${name}-${size.width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  beforeAll(async () => {
    browser = await launchChromium();
    app = await openApp(browser);
    page = app.page;
    scenes = await tempDir('rd-e2e-times-');
    await mkdir(ARTIFACTS, { recursive: true });
    await app.host.ready();
    await app.host.handlers['settings.update']({ thisComputer: { renders: 1, threads: null } });
  });

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  it('shows a job waiting behind another as waiting, with the jobs ahead and no running clock', async () => {
    // Every sample is rendered, so each frame takes a while on any machine.
    const scene = await makeSampleScene(scenes, { frames: 20, missingTexture: false, name: 'long shot.blend', everySample: true });
    await submit(scene, { colorManagementPreset: 'default', sampleCount: 1500, frameRanges: ['1-20'] });
    await expect.poll(async () => (await summaryOf('long shot.blend'))?.status, { timeout: 180_000, interval: 500 }).toBe('rendering');

    const second = await makeSampleScene(scenes, { frames: FRAMES_B, missingTexture: false, name: 'next shot.blend', everySample: true });
    // Frames of a second or more, so the time left is judged on more than the display's whole seconds.
    await submit(second, { colorManagementPreset: 'default', sampleCount: 4000, frameRanges: [`1-${FRAMES_B}`] });
    const third = await makeSampleScene(scenes, { frames: 3, missingTexture: false, name: 'last shot.blend', everySample: true });
    await submit(third, { colorManagementPreset: 'default', sampleCount: 100, frameRanges: ['1-3'] });
    await expect.poll(async () => (await summaryOf('last shot.blend'))?.waiting?.jobsAhead, { timeout: 120_000, interval: 500 }).toBe(2);
    await expect.poll(async () => (await summaryOf('long shot.blend'))?.status).toBe('rendering');

    // Waiting, with the jobs ahead until the node can say when it starts (after a frame of the job ahead), then that.
    const waitingRow = /^Waiting(1 job ahead|in (~\d+ min|< 1 min))$/;
    const time = timeOf('next shot.blend');
    await expect.poll(() => time.textContent(), { timeout: 20_000 }).toMatch(waitingRow);
    await page.waitForTimeout(2_000);
    expect(await time.textContent(), 'no clock runs while it waits').toMatch(waitingRow);
    expect(await time.getAttribute('title')).toMatch(/^(Waiting — 1 job ahead|Starts in (about \d+ min|under a minute) — 1 job ahead);/);
    expect(await rowOf('next shot.blend').locator('.badge').textContent()).toBe('Waiting');
    await expect.poll(() => timeOf('last shot.blend').textContent()).toMatch(/^Waiting(2 jobs ahead|in (~\d+ min|< 1 min))$/);

    const detail = await openDetails('next shot.blend');
    const fact = detail.getByTestId('detail-time');
    const waitingFact = /^(Waiting — 1 job ahead|Starts in (about \d+ min|under a minute))$/;
    expect(await fact.textContent()).toMatch(waitingFact);
    await page.waitForTimeout(2_000);
    expect(await fact.textContent()).toMatch(waitingFact);
    await screenshots('times-waiting');
    expect(await seriousAxeProblems(page)).toEqual([]);
  });

  it('counts no time for a job canceled while it waited', async () => {
    const { id } = (await summaryOf('last shot.blend'))!;
    await app.host.handlers['jobs.cancel']({ jobId: id });
    await expect.poll(async () => (await summaryOf('last shot.blend'))?.status, { timeout: 30_000 }).toBe('canceled');
    const detail = await openDetails('last shot.blend');
    await expect.poll(() => detail.getByTestId('detail-time').textContent()).toBe('It did not render');
    expect(await timeOf('last shot.blend').getAttribute('title')).toBe('It did not render');
  });

  it('once it renders, its time left is within 30 % of the time that truly remained', async () => {
    const left = timeOf('next shot.blend').locator('.row-sub');
    const detail = await openDetails('next shot.blend');
    const samples: { at: number; done: number; shown: number }[] = [];
    let shot = false;
    const deadline = Date.now() + 600_000;
    while (Date.now() < deadline) {
      const summary = await summaryOf('next shot.blend');
      const status = summary?.status ?? '';
      if (status === 'finalizing' || status === 'completed') break;
      const text = status === 'rendering' && (await left.count()) > 0 ? ((await left.first().textContent()) ?? '') : '';
      const shown = text.endsWith(' left') ? secondsOf(text) : null;
      if (summary && shown !== null) samples.push({ at: Date.now(), done: summary.completedFrames, shown });
      if (!shot && samples.some((s) => s.done >= FRAMES_B / 2)) {
        shot = true;
        expect(await detail.getByTestId('detail-time').textContent()).toMatch(/^Rendering for .+, about .+ left$/);
        await screenshots('times-rendering');
      }
      await page.waitForTimeout(250);
    }
    await expect.poll(async () => (await summaryOf('next shot.blend'))?.status, { timeout: 120_000 }).toBe('completed');
    const { summary, timeline } = await app.host.handlers['jobs.get']({ jobId: (await summaryOf('next shot.blend'))!.id });
    const renderedAt = Date.parse(timeline.find((e) => e.status === 'finalizing')!.at);
    const midway = samples.find((s) => s.done >= FRAMES_B / 2);
    const firstOfEach = samples.filter((s, i) => i === 0 || samples[i - 1]!.done !== s.done);
    console.log(`time left shown vs true, as each frame came (s): ${firstOfEach.map((s) => `${s.done}/${FRAMES_B}: ${s.shown} vs ${Math.round((renderedAt - s.at) / 1000)}`).join(', ')}`);
    expect(midway, JSON.stringify(samples)).toBeDefined();
    const truth = (renderedAt - midway!.at) / 1000;
    // 30 % of the truth, but never finer than the whole seconds on screen and the quarter-second sampling
    // (on a fast machine a frame takes a second, and 30 % of 4 s is less than the display can say).
    expect(Math.abs(midway!.shown - truth)).toBeLessThanOrEqual(Math.max(0.3 * truth, 2));

    // Time taken counts its rendering only, not the minutes it waited behind the first job.
    const waited = (Date.parse(summary.renderingSince!) - Date.parse(summary.startedAt!)) / 1000;
    expect(waited).toBeGreaterThan(5);
    const taken = secondsOf((await detail.getByTestId('detail-time').textContent()) ?? '');
    const rendering = (Date.parse(summary.endedAt!) - Date.parse(summary.renderingSince!)) / 1000;
    expect(taken).not.toBeNull();
    // Whole seconds on screen, and the job's end is stamped when its outputs are listed (packaging ten
    // frames on a busy machine): 3 s of slack, far less than the wait.
    expect(Math.abs(taken! - rendering)).toBeLessThanOrEqual(3);
    expect(taken!).toBeLessThan(rendering + waited - 2);
    await screenshots('times-completed');
  });

  it('estimates a render again from the frames, resolution and samples typed in the review, in one sentence', async () => {
    const row = rowOf('next shot.blend');
    await row.getByRole('button', { name: 'More actions for next shot.blend' }).click();
    await page.getByRole('menu', { name: 'Actions for next shot.blend' }).getByRole('menuitem', { name: 'Submit again' }).click();
    const sheet = page.getByRole('dialog', { name: 'Review next shot.blend' });
    await sheet.getByLabel('Frames').waitFor({ timeout: 120_000 });
    const estimate = sheet.getByTestId('render-estimate');
    await sheet.getByLabel('Frames').fill('1-5');
    await expect.poll(() => estimate.textContent()).toMatch(/scaled to 5 frames at \d+ × \d+, 4000 samples\.$/);
    const five = secondsOf((await estimate.textContent()) ?? '');
    await sheet.getByLabel('Samples').fill('8000');
    await expect.poll(() => estimate.textContent()).toMatch(/scaled to 5 frames at \d+ × \d+, 8000 samples\.$/);
    const text = (await estimate.textContent()) ?? '';
    expect(text).toMatch(/^About .+ to render, based on the last render of next shot\.blend on this farm \(latest: 10 frames/);
    expect(text).not.toMatch(/based on based on|\.\.$/i);
    expect(secondsOf(text)).toBeGreaterThan(five! * 1.5);
    await screenshots('times-review-estimate');
    await page.setViewportSize({ width: 800, height: 600 });
    const footer = await buttonsUnderToast(page);
    expect(footer.buttons, 'the review has footer buttons').toBeGreaterThan(1);
    expect(footer.covered, 'dialog buttons a notification covers at 800 x 600').toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await seriousAxeProblems(page, { include: '[role="dialog"]' })).toEqual([]);
    await sheet.getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  });
});

/**
 * The dialog's footer buttons a notification would cover: a toast is shown and its region moved onto
 * each button in turn (where a long toast or a small window puts it), then the topmost element at the
 * button's centre must still be the button. Run in the page.
 */
const BUTTONS_UNDER_TOAST = `(() => {
  const region = document.querySelector('.toasts');
  const toast = document.createElement('div');
  toast.className = 'toast toast-success';
  toast.innerHTML = '<strong>Render complete</strong><p>a scene: 10 frames rendered.</p>';
  region.append(toast);
  const saved = region.getAttribute('style');
  const buttons = [...document.querySelectorAll('[role="dialog"] footer button')];
  const covered = buttons.flatMap((button) => {
    const box = button.getBoundingClientRect();
    region.setAttribute('style', 'left: ' + (box.left - 8) + 'px; top: ' + (box.top - 8) + 'px; right: auto; bottom: auto;');
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return top && button.contains(top) ? [] : [button.textContent ?? ''];
  });
  if (saved === null) region.removeAttribute('style'); else region.setAttribute('style', saved);
  toast.remove();
  return { buttons: buttons.length, covered };
})()`;

async function buttonsUnderToast(page: Page): Promise<{ buttons: number; covered: string[] }> {
  return (await page.evaluate(BUTTONS_UNDER_TOAST)) as { buttons: number; covered: string[] };
}
