import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { runBlender } from '../../src/render-node/blender/run-blender';
import { requireBlender } from '../helpers/blender';
import { ROOT } from '../helpers/cli';
import { tempDir } from '../helpers/scene-files';
import { requireTool } from '../helpers/tools';
import { ARTIFACTS, SCREEN_SIZES, openApp, type AppUnderTest } from './app-under-test';
import { seriousAxeProblems } from './axe-audit';
import { launchChromium, requireChromium } from './chromium';

const blenderPath = requireBlender();
const ready = requireChromium() && blenderPath !== null && requireTool('ffmpeg') !== null;

describe.skipIf(!ready)('a scene whose output is a video, in Chromium (browser mode, local node, real Blender, real FFmpeg)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await openApp(browser, { localNodePort: 0 });
    page = app.page;
    await mkdir(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  it('says in the review that the MP4 is made on the farm from PNG frames, and the video arrives beside the frames', async () => {
    const scene = join(await tempDir('rd-e2e-video-'), 'clip.blend');
    const made = await runBlender({
      blenderPath: blenderPath!,
      args: ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python', join(ROOT, 'test/fixtures/blender/make-video-scene.py'), '--', scene, 'MPEG4', 'H264', '24', '1'],
      timeoutMs: 170_000,
    });
    expect(made.exitCode, made.stdout.slice(-2000)).toBe(0);
    await page.getByTestId('file-input').setInputFiles(scene);
    const sheet = page.getByRole('dialog', { name: /Review clip\.blend/ });
    await sheet.waitFor({ timeout: 120_000 });
    await expect.poll(() => sheet.getByTestId('detected-output').textContent()).toBe('MP4 (H.264) video, made on the farm from PNG frames');
    const dismiss = page.getByRole('button', { name: /^Dismiss: / });
    while ((await dismiss.count()) > 0) await dismiss.first().click();
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await sheet.getByTestId('detected-output').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `video-review-${size.width}.png`) });
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), `no sideways scrolling at ${size.width} px`).toBe(true);
    }
    expect(await seriousAxeProblems(page, { include: '[role="dialog"]' })).toEqual([]);

    await sheet.getByRole('button', { name: 'Start render' }).click();
    const row = page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name: 'clip.blend' });
    await row.getByText('Downloaded').waitFor({ timeout: 180_000 });
    const [folderName] = await readdir(app.downloads);
    const names = (await readdir(join(app.downloads, folderName!))).sort();
    expect(names).toEqual(['clip_0001-0006.mp4', 'clip_0001.png', 'clip_0002.png', 'clip_0003.png', 'clip_0004.png', 'clip_0005.png', 'clip_0006.png']);
  });
});
