import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdir, readdir, realpath, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { tempDir } from '../helpers/scene-files';
import { openApp, type AppUnderTest } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';

const ready = requireChromium();

/** Another local server: a page of its own at `/`, and every request's headers kept. */
interface OtherServer {
  url: string;
  seen: IncomingHttpHeaders[];
  close(): Promise<void>;
}

async function startOtherServer(): Promise<OtherServer> {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((request, response) => {
    seen.push(request.headers);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Another local app</title><p>Another local app</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Runs in the other server's page (kept as text: the test code is type-checked without the DOM
 * library): every way a page can reach the app's API with the browser's cookies, and what the page
 * gets back, plus what this origin's sessionStorage holds.
 */
const ATTACK = `async ({ app, path }) => {
  const body = JSON.stringify({ files: [{ path }] });
  const outcome = async (attempt) => {
    try {
      const response = await attempt();
      return response.type === 'opaque' ? 'opaque' : response.status + ' ' + (await response.text());
    } catch (error) {
      return 'blocked';
    }
  };
  const stream = () => new Promise((resolve) => {
    const source = new EventSource(app + '/api/events', { withCredentials: true });
    source.onmessage = (m) => { source.close(); resolve('message ' + m.data); };
    source.onerror = () => { source.close(); resolve('blocked'); };
  });
  return {
    cors: await outcome(() => fetch(app + '/api/call/submissions.submit', { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body })),
    simple: await outcome(() => fetch(app + '/api/call/submissions.submit', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body })),
    upload: await outcome(() => fetch(app + '/api/upload?name=stolen.blend', { method: 'POST', mode: 'no-cors', credentials: 'include', body: 'BLENDER-v300' })),
    events: await outcome(() => fetch(app + '/api/events', { credentials: 'include' })),
    eventSource: await stream(),
    stored: sessionStorage.getItem('renderdrop.pageSecret'),
  };
}`;

const SESSION_COOKIE = /renderdrop_session=([^;]+)/;

describe.skipIf(!ready)('browser mode: the session cookie is no key for other servers on 127.0.0.1 (Chromium)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let other: OtherServer;
  let outsideScene: string;

  beforeAll(async () => {
    const base = await realpath(await tempDir('rd-e2e-replay-'));
    outsideScene = join(base, 'outside-home.blend');
    await writeFile(outsideScene, 'BLENDER-v300');
    const home = join(base, 'home');
    await mkdir(home);
    browser = await launchChromium();
    app = await openApp(browser, { home, blender: null, localNodePort: 0 });
    page = app.page;
    other = await startOtherServer();
  });

  afterAll(async () => {
    await app?.close();
    await other?.close();
    await browser?.close();
  });

  it('loads the app from the one-time link and keeps its secret in its own origin only', async () => {
    await page.locator('[data-state]').first().waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).search).toBe('');
    expect(await page.evaluate(`document.querySelector('meta[name="renderdrop-session"]') === null`)).toBe(true);
    expect(await page.evaluate(`sessionStorage.getItem('renderdrop.pageSecret')`)).toMatch(/^[\w-]{40,}$/);
  });

  it('gives a page of another port on 127.0.0.1 nothing, though Chromium sends it the cookie', async () => {
    await page.goto(other.url);
    const results = (await page.evaluate(`(${ATTACK})(${JSON.stringify({ app: app.web.url, path: outsideScene })})`)) as Record<string, string | null>;
    // A no-cors request reaches the server, but its answer carries Cross-Origin-Resource-Policy: same-origin, so the page sees a network error.
    expect(results).toEqual({ cors: 'blocked', simple: 'blocked', upload: 'blocked', events: 'blocked', eventSource: 'blocked', stored: null });
    expect(await readdir(join(app.dir, 'staged')).catch(() => [])).toEqual([]);

    const cookie = other.seen.map((headers) => SESSION_COOKIE.exec(headers.cookie ?? '')?.[0]).find(Boolean);
    expect(cookie, 'Chromium did not send the session cookie to the other port: the premise of this test changed').toBeDefined();
    const replay = (path: string, init: RequestInit) => fetch(`${app.web.url}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), cookie: cookie! } });
    const answers = [
      await replay('/api/call/submissions.submit', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ files: [{ path: outsideScene }] }) }),
      await replay('/api/upload?name=stolen.blend', { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: 'BLENDER-v300' }),
      await replay('/api/events', { method: 'GET', headers: {} }),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401]);
    expect(await app.host.handlers['submissions.list']({})).toEqual([]);
  });

  it('still works in the app\'s own tab, after going back and after a reload: calls and events', async () => {
    await page.goto(app.web.url);
    await page.locator('[data-state]').first().waitFor({ timeout: 30_000 });
    await page.reload();
    await page.locator('[data-state]').first().waitFor({ timeout: 30_000 });
    await app.host.handlers['settings.update']({ theme: 'light' });
    await expect.poll(() => page.locator('html').getAttribute('data-theme'), { timeout: 15_000 }).toBe('light');
    const refused = (await page.evaluate(
      `fetch('/api/call/submissions.submit', { method: 'POST', headers: { 'content-type': 'application/json', 'x-renderdrop-session': sessionStorage.getItem('renderdrop.pageSecret') }, body: ${JSON.stringify(JSON.stringify({ files: [{ path: outsideScene }] }))} }).then((r) => r.json())`,
    )) as unknown;
    expect(refused).toMatchObject({ ok: false, error: { code: 'outside-home' } });
  });
});
