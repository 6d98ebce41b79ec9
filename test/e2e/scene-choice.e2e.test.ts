import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubmissionJournal } from '../../src/core/journal/submission-journal';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { hasZipTool, realZip } from '../helpers/real-zip';
import { tempDir } from '../helpers/scene-files';
import { ARTIFACTS, dropFiles, openApp, type AppUnderTest } from './app-under-test';
import { seriousAxeProblems } from './axe-audit';
import { launchChromium, requireChromium } from './chromium';

const ready = requireChromium() && requireBlender() !== null && hasZipTool('zip');

describe.skipIf(!ready)('the app asks which scene of a dropped zip to render (browser mode, local node, real Blender)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await openApp(browser);
    page = app.page;
    await mkdir(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  it('offers one button per scene, and validates the scene chosen without uploading again', async () => {
    const scenes = await tempDir('rd-e2e-scene-choice-');
    const scene = await readFile(await makeSampleScene(scenes, { missingTexture: false }));
    const zip = await realZip('zip', 'two shots.zip', { 'shot A.blend': scene, 'shot B.blend': scene });
    await dropFiles(page, [{ name: 'two shots.zip', bytes: await readFile(zip) }]);

    const card = page.getByRole('listitem', { name: 'two shots.zip' });
    const choice = card.getByRole('group', { name: 'This zip holds 2 scenes. Which one should render?' });
    await choice.waitFor({ timeout: 60_000 });
    await card.getByText('Choose the scene').waitFor({ timeout: 60_000 });
    expect(await choice.getByRole('button', { name: /\.blend$/ }).allTextContents()).toEqual(['shot A.blend', 'shot B.blend']);
    await choice.getByRole('button', { name: 'Discard' }).waitFor();
    const problems = await seriousAxeProblems(page);
    expect(problems.filter((p) => !p.targets.every((target) => target === '.toasts')), 'the notifications region is another view\'s').toEqual([]);
    for (const width of [800, 1024, 1440]) {
      await page.setViewportSize({ width, height: 700 });
      await page.screenshot({ path: join(ARTIFACTS, `scene-choice-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    await choice.getByRole('button', { name: 'shot B.blend' }).click();
    const sheet = page.getByRole('dialog', { name: 'Review two shots.zip' });
    await sheet.waitFor({ timeout: 120_000 });
    const [record] = await new SubmissionJournal({ dataDir: app.dir }).list();
    expect(record).toMatchObject({ step: 'validated', validateBody: { scenePath: 'shot B.blend' } });
    expect(record!.history.filter((h) => h.step === 'upload-target')).toHaveLength(1);
    await sheet.getByRole('button', { name: 'Discard' }).click();
  });
});
