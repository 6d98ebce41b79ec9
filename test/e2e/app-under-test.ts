import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { MemorySecretStore } from '../../src/core/secrets/memory-secret-store';
import { createHost, type AppHost, type HostOptions } from '../../src/host/host';
import { startWebServer, type WebServer } from '../../src/web/web-server';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where screenshots go (git-ignored). */
export const ARTIFACTS = join(ROOT, 'test-results');

/** The window sizes every screen is looked at (and checked for sideways scrolling) at. */
export const SCREEN_SIZES = [
  { width: 800, height: 600 },
  { width: 1024, height: 640 },
  { width: 1440, height: 900 },
] as const;

let built: Promise<string> | null = null;

/** Builds the renderer once per run into a temporary folder (so a stale out/ never hides a change). */
export function buildRenderer(): Promise<string> {
  built ??= (async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'rd-renderer-'));
    await build({
      root: join(ROOT, 'src/renderer'),
      base: './',
      configFile: false,
      plugins: [react()],
      logLevel: 'error',
      build: { outDir, emptyOutDir: true, target: 'es2022', sourcemap: false },
    });
    return outDir;
  })();
  return built;
}

/** The app in browser mode: a host on a fresh config folder, its web server, and a logged-in page. */
export interface AppUnderTest {
  host: AppHost;
  web: WebServer;
  dir: string;
  downloads: string;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Starts the host (with the in-process local node) and opens the one-time link in a new browser context. */
export async function openApp(browser: Browser, options: Partial<HostOptions> = {}): Promise<AppUnderTest> {
  const staticDir = await buildRenderer();
  const dir = await mkdtemp(join(tmpdir(), 'rd-e2e-'));
  const downloads = join(dir, 'downloads');
  await mkdir(downloads, { recursive: true });
  const host = await createHost({
    configDir: dir,
    env: { ...process.env, RENDERDROP_API_KEY: '', RENDERDROP_BASE_URL: '' },
    secrets: new MemorySecretStore(),
    keyStore: 'memory',
    shell: 'web',
    home: dir,
    openPath: async () => undefined,
    ...options,
  });
  await host.handlers['settings.update']({ downloadDir: downloads });
  const web = await startWebServer({ host, staticDir });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto(web.loginUrl);
  return {
    host,
    web,
    dir,
    downloads,
    context,
    page,
    close: async () => {
      await context.close();
      await web.close();
      await host.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Runs in the page (kept as text: the test code is type-checked without the DOM library). */
const DROP_SCRIPT = `(list) => {
  const transfer = new DataTransfer();
  for (const f of list) {
    const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
    transfer.items.add(new File([bytes], f.name, { type: 'application/octet-stream' }));
  }
  const target = document.querySelector('main') ?? document.body;
  for (const type of ['dragenter', 'dragover', 'drop']) {
    target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
  }
}`;

/** Drops files on the window the way a browser does: a real `drop` event carrying File objects. */
export async function dropFiles(page: Page, files: { name: string; bytes: Buffer }[]): Promise<void> {
  const payload = files.map((f) => ({ name: f.name, base64: f.bytes.toString('base64') }));
  await page.evaluate(`(${DROP_SCRIPT})(${JSON.stringify(payload)})`);
}
