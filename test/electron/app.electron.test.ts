import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findElectronBinary, systemLookup } from '../../scripts/start-desktop';
import { blendBytes, tempDir } from '../helpers/scene-files';
import { makeSampleScene, requireBlender } from '../helpers/blender';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const binary = findElectronBinary(systemLookup());
if (!binary) process.stderr.write('Skipping the Electron smoke test: the Electron binary is not installed here (see `npm start`).\n');
const blender = binary ? requireBlender() : null;

describe.skipIf(!binary)('the desktop app (Electron)', () => {
  let app: ElectronApplication;
  let page: Page;
  let dir: string;

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'out/main/index.js'))) throw new Error('Build the app first: npm run build (npm run test:electron does).');
    dir = await tempDir('rd-electron-');
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'ELECTRON_RENDERER_URL') env[key] = value;
    app = await _electron.launch({
      executablePath: binary!,
      args: [ROOT, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
      cwd: ROOT,
      env: { ...env, RENDERDROP_CONFIG_DIR: dir, RENDERDROP_TEST_HOOKS: '1', RENDERDROP_API_KEY: '', RENDERDROP_BASE_URL: '' },
    });
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  });

  afterAll(async () => {
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('opens one window titled Renderdrop on the app scheme', async () => {
    expect(await page.title()).toBe('Renderdrop');
    expect(page.url()).toBe('app://renderdrop/index.html');
    expect(app.windows()).toHaveLength(1);
  });

  it('gives the page the contract and nothing of Node.js or Electron', async () => {
    expect(await page.evaluate('Object.keys(window.renderdrop).sort()')).toEqual(['call', 'pathForFile', 'subscribe']);
    expect(await page.evaluate('[typeof require, typeof process, typeof window.ipcRenderer]')).toEqual(['undefined', 'undefined', 'undefined']);
    const state = (await page.evaluate("window.renderdrop.call('app.getState', {})")) as { ok: boolean; value: { shell: string } };
    expect(state).toMatchObject({ ok: true, value: { shell: 'desktop' } });
  });

  it('has a tray icon with a tooltip', async () => {
    const tray = (await app.evaluate('globalThis.__renderdropTest.tray()')) as { look: string; tooltip: string };
    expect(['idle', 'active', 'error']).toContain(tray.look);
    expect(tray.tooltip).toMatch(/^Renderdrop: /);
  });

  it('takes the sample scene dropped on it (by path, through the preload)', async () => {
    const scenes = join(dir, 'scenes');
    await mkdir(scenes, { recursive: true });
    const scene = blender ? await makeSampleScene(scenes, {}) : join(scenes, 'sample.blend');
    if (!blender) await writeFile(scene, blendBytes());
    await page.getByTestId('file-input').setInputFiles(scene);
    if (blender) {
      await page.getByRole('dialog', { name: 'Review sample.blend' }).waitFor({ timeout: 120_000 });
    } else {
      await page.getByText('sample.blend').first().waitFor({ timeout: 30_000 });
      await page.getByText(/Blender was not found/).first().waitFor({ timeout: 30_000 });
    }
  });
});
