import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { requireBlender } from '../helpers/blender';
import { makePackingScene, renderInPlace } from '../helpers/pack-corpus';
import { ProjectRoots } from '../../src/core/packing/project-roots';
import { decodePng } from '../helpers/png-pixels';
import { tempDir } from '../helpers/scene-files';
import { seriousAxeProblems } from './axe-audit';
import { ARTIFACTS, SCREEN_SIZES, dropFiles, openApp, type AppUnderTest } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';

const blenderPath = requireBlender();
const ready = requireChromium() && blenderPath !== null;

/** Runs in the page: the accessible name of what has focus (kept as text: tests compile without the DOM library). */
const FOCUSED_NAME = `(() => { const a = document.activeElement; return a ? (a.getAttribute('aria-label') || a.textContent || a.tagName).trim() : ''; })()`;
const FOCUS_IN_DIALOG = `(() => { const d = document.querySelector('[role="dialog"]'); return !!d && d.contains(document.activeElement); })()`;
const HORIZONTAL_OVERFLOW = `document.documentElement.scrollWidth - document.documentElement.clientWidth`;

/** Screenshots at 800, 1024 and 1440 px wide, each checked for sideways scrolling. */
async function shootAtEverySize(page: Page, name: string): Promise<void> {
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    expect(await page.evaluate(HORIZONTAL_OVERFLOW), `${name} scrolls sideways at ${size.width}px`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${size.width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Each entry of a file list: its name, what it is and its size, as shown. */
async function entries(list: Locator): Promise<string[]> {
  const options = await list.getByRole('option').all();
  return Promise.all(options.map(async (o) => [await o.locator('.file-name').textContent(), await o.locator('.file-kind').textContent(), await o.locator('.file-size').textContent()].filter(Boolean).join(', ')));
}

function queueRow(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name });
}

describe.skipIf(!ready)('opening scenes from this computer in the browser (file browser, local node, real Blender)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let home: string;
  let scene: string;

  beforeAll(async () => {
    home = await realpath(await tempDir('rd-e2e-home-'));
    const projects = join(home, 'Projects');
    await mkdir(projects, { recursive: true });
    scene = (await makePackingScene(blenderPath!, projects)).scene;
    await mkdir(join(home, 'Documents'));
    await mkdir(join(home, '.config'));
    await writeFile(join(projects, 'notes.txt'), 'shot notes');
    browser = await launchChromium();
    app = await openApp(browser, { home, localNodePort: 0 });
    // The scene uses //../shared/stamp.png: its project is Projects/, as if chosen once before.
    await new ProjectRoots(app.dir).remember(scene, projects);
    page = app.page;
    await mkdir(ARTIFACTS, { recursive: true });
    await page.getByRole('button', { name: 'Add files…' }).waitFor({ timeout: 30_000 });
  });

  afterAll(async () => {
    await app?.close();
    await browser?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('opens the file browser from "Add files…" with the keyboard; Escape closes it and gives focus back', async () => {
    const add = page.getByRole('banner').getByRole('button', { name: 'Add files…' });
    await add.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Open scenes from this computer' });
    const list = dialog.getByRole('listbox', { name: 'Files in Home' });
    await list.waitFor();
    expect(await entries(list)).toEqual(['Documents, Folder', 'Projects, Folder']);
    expect(await page.evaluate(FOCUSED_NAME)).toBe('Files in Home');
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(FOCUS_IN_DIALOG), 'Tab stays in the dialog').toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(FOCUSED_NAME)).toBe('Add files…');
  });

  it('a scene dropped in the browser says its files could not be checked and opens it from disk instead, with the keyboard', async () => {
    await dropFiles(page, [{ name: 'shot.blend', bytes: await readFile(scene) }]);
    const dropped = queueRow(page, 'shot.blend');
    const missing = dropped.getByRole('list', { name: 'Missing files of shot.blend' });
    await missing.waitFor({ timeout: 60_000 });
    await dropped.getByText(/The browser sent only this scene, not the folder around it, so \d files it uses could not be checked/).waitFor();
    for (const text of await missing.getByRole('listitem').allTextContents()) expect(text).toContain('could not be checked');
    await dropped.getByRole('button', { name: 'Open it from disk instead' }).click();

    const dialog = page.getByRole('dialog', { name: 'Open scenes from this computer' });
    await dialog.getByRole('listbox', { name: 'Files in Home' }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const inProjects = dialog.getByRole('listbox', { name: 'Files in Projects', exact: true });
    await inProjects.waitFor();
    expect(await entries(inProjects)).toEqual(['proj, Folder', 'shared, Folder', 'notes.txt, 10 bytes']);
    await page.keyboard.press('Enter');
    const inProj = dialog.getByRole('listbox', { name: 'Files in proj', exact: true });
    await inProj.waitFor();
    await page.keyboard.press('Backspace');
    await inProjects.waitFor();
    await page.keyboard.press('Enter');
    await inProj.waitFor();
    await page.keyboard.press('Alt+ArrowUp');
    await inProjects.waitFor();
    await page.keyboard.press('Enter');
    await inProj.waitFor();
    expect(await dialog.getByRole('navigation', { name: 'Folder' }).textContent()).toBe('HomeProjectsproj');
    await page.keyboard.press('End');
    await page.keyboard.press(' ');
    await dialog.getByText('1 scene chosen').waitFor();
    expect(await inProj.getByRole('option', { name: /shot\.blend/ }).getAttribute('aria-selected')).toBe('true');
    const words = (await dialog.textContent()) ?? '';
    expect(words).not.toContain(home);
    expect(words).not.toMatch(/files\.list|path|kind|modified/);
    expect(await seriousAxeProblems(page, { include: '.file-browser' })).toEqual([]);
    await shootAtEverySize(page, 'file-browser');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
  });

  it('the scene opened from disk tells the files found on this computer from those truly gone, renders, and matches Blender pixel for pixel', async () => {
    const row = queueRow(page, 'shot.blend');
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    const missing = row.getByRole('list', { name: 'Missing files of shot.blend' });
    await missing.waitFor({ timeout: 60_000 });
    expect(await missing.getByRole('listitem').allTextContents()).toEqual([
      `${join(home, 'Projects', 'proj', 'textures', 'big.exr')}image “big”: not on this computer`,
      `${join(home, 'Projects', 'proj', 'textures', 'missing.png')}image “missing”: not on this computer`,
    ]);
    expect(await row.getByRole('button', { name: 'Open it from disk instead' }).count()).toBe(0);
    await row.getByRole('button', { name: 'Continue anyway' }).click();

    const sheet = page.getByRole('dialog', { name: 'Review shot.blend' });
    await sheet.waitFor({ timeout: 120_000 });
    await sheet.getByTestId('scene-files').getByText('2 files found on this computer travel with the scene. 2 files it uses are not on this computer (see below).').waitFor();
    const warnings = await sheet.getByRole('region', { name: 'Warnings' }).getByRole('listitem').allTextContents();
    expect(warnings.some((w) => w.includes(join(home, 'Projects', 'proj', 'textures', 'missing.png')) && w.includes('not on this computer'))).toBe(true);
    expect(warnings.join('\n')).not.toContain('could not be checked');
    await shootAtEverySize(page, 'file-browser-review');
    await sheet.getByRole('button', { name: 'Start render' }).click();
    await row.getByText('Downloaded').waitFor({ timeout: 240_000 });

    const [folderName] = await readdir(app.downloads);
    const folder = join(app.downloads, folderName!);
    const frames = (await readdir(folder)).filter((n) => n.endsWith('.png')).sort();
    expect(frames).toHaveLength(2);
    const inPlace = join(home, 'inplace');
    await renderInPlace(blenderPath!, scene, join(inPlace, 'frame_'), 1, 2);
    for (const [index, name] of frames.entries()) {
      const ours = decodePng(await readFile(join(folder, name)));
      const blenders = decodePng(await readFile(join(inPlace, `frame_000${index + 1}.png`)));
      expect([ours.width, ours.height]).toEqual([blenders.width, blenders.height]);
      expect(ours.data.equals(blenders.data), `${name} is pixel-identical to Blender's own render`).toBe(true);
    }
  });
});
