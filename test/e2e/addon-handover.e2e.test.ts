import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { access, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { run } from '../addon/helpers/addon-setup';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { ROOT } from '../helpers/cli';
import { tempDir } from '../helpers/scene-files';
import { seriousAxeProblems } from './axe-audit';
import { ARTIFACTS, SCREEN_SIZES, openApp, type AppUnderTest } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';

const ready = requireChromium() && requireBlender() !== null;
const HORIZONTAL_OVERFLOW = `document.documentElement.scrollWidth - document.documentElement.clientWidth`;

interface HandoverFile {
  version: number;
  url: string;
  token: string;
  pid: number;
}

/** A hand-over as the add-on sends it (no browser headers), with whatever secret and headers the test gives. */
function handOver(url: string, scene: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ scene }) });
}

/** A page from another site, served on 127.0.0.1 like any local web server an artist might visit. */
async function serveForeignPage(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Some page</title><p>Some page</p>');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((done) => server.close(() => done())) };
}

/** Runs in a web page: posts a form to the hand-over (the one request a page can send anywhere without asking). */
const FORM_ATTEMPT = `({ url, scene }) => {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = url;
  form.enctype = 'text/plain';
  const input = document.createElement('input');
  input.name = '{"scene": "' + scene + '", "x": "';
  input.value = '"}';
  form.append(input);
  document.body.append(form);
  form.submit();
}`;

/** Runs in a web page: the hand-over tried with fetch, with the right secret even. Answers what the page could see. */
const PAGE_ATTEMPT = `async ({ url, token, scene }) => {
  const seen = [];
  try {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token }, body: JSON.stringify({ scene }) });
    seen.push('json:' + r.status);
  } catch (e) { seen.push('json:blocked'); }
  try {
    const r = await fetch(url, { method: 'POST', mode: 'no-cors', body: JSON.stringify({ scene }) });
    seen.push('no-cors:' + r.type);
  } catch (e) { seen.push('no-cors:blocked'); }
  return seen;
}`;

function queueRow(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name });
}

describe.skipIf(!ready)('the Blender add-on and browser mode (Chromium, local node, real Blender)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let scenes: string;
  let scripts: string;
  let info: HandoverFile;
  let blenderConfig: string;
  let series = '';

  beforeAll(async () => {
    browser = await launchChromium();
    const blenderHome = await tempDir('rd-e2e-blender-user-');
    scripts = join(blenderHome, 'scripts');
    blenderConfig = join(blenderHome, 'config');
    await Promise.all([mkdir(scripts), mkdir(blenderConfig)]);
    app = await openApp(browser, {
      env: { ...process.env, RENDERDROP_API_KEY: '', RENDERDROP_BASE_URL: '', BLENDER_USER_SCRIPTS: scripts, BLENDER_USER_CONFIG: blenderConfig },
    });
    page = app.page;
    scenes = await tempDir('rd-e2e-handover-');
    await mkdir(ARTIFACTS, { recursive: true });
    await page.getByRole('button', { name: 'Add files…' }).waitFor({ timeout: 30_000 });
    info = JSON.parse(await readFile(join(app.dir, 'handover.json'), 'utf8')) as HandoverFile;
  });

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  it('announces the hand-over in handover.json, readable by this user only', async () => {
    expect((await stat(join(app.dir, 'handover.json'))).mode & 0o777).toBe(0o600);
    expect(info).toMatchObject({ version: 1, pid: process.pid });
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/handover$/);
    expect(info.url.startsWith(app.web.url)).toBe(false);
  });

  it('refuses a hand-over without the secret, with a wrong one, or from a web page: nothing appears', async () => {
    const scene = await makeSampleScene(scenes, { missingTexture: false, name: 'refused.blend' });
    expect((await handOver(info.url, scene, {})).status).toBe(401);
    expect((await handOver(info.url, scene, { authorization: `Bearer ${'A'.repeat(info.token.length)}` })).status).toBe(401);
    expect((await handOver(info.url, scene, { authorization: 'Bearer not-the-secret' })).status).toBe(401);
    expect((await handOver(info.url, scene, { authorization: `Bearer ${info.token}`, origin: 'https://evil.example' })).status).toBe(403);
    const foreign = await serveForeignPage();
    const other = await app.context.newPage();
    try {
      await other.goto(foreign.url);
      const seen = (await other.evaluate(`(${PAGE_ATTEMPT})(${JSON.stringify({ url: info.url, token: info.token, scene })})`)) as string[];
      expect(seen).toEqual(['json:blocked', 'no-cors:opaque']);
      await Promise.all([other.waitForURL(info.url), other.evaluate(`(${FORM_ATTEMPT})(${JSON.stringify({ url: info.url, scene })})`)]);
      expect(JSON.parse((await other.locator('body').textContent()) ?? '')).toEqual({ accepted: false, error: 'Web pages may not hand scenes to Renderdrop.' });
    } finally {
      await other.close();
      await foreign.close();
    }

    await page.waitForTimeout(1500);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await queueRow(page, 'refused.blend').count()).toBe(0);
    expect(await app.host.handlers['submissions.list']({})).toEqual([]);
  });

  it('takes a hand-over with the secret from handover.json: the scene is in the queue and its review sheet opens', async () => {
    const scene = await makeSampleScene(scenes, { missingTexture: false, name: 'from-blender.blend' });
    const answer = await handOver(info.url, scene, { authorization: `Bearer ${info.token}` });
    expect(answer.status).toBe(202);
    expect(await answer.json()).toEqual({ accepted: true, submissionId: expect.any(String) });
    await queueRow(page, 'from-blender.blend').waitFor({ timeout: 30_000 });
    const sheet = page.getByRole('dialog', { name: 'Review from-blender.blend' });
    await sheet.waitFor({ timeout: 120_000 });
    await sheet.getByLabel('Samples').waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(ARTIFACTS, 'addon-handover-review.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  });

  it('lists the Blenders of this computer in Settings and installs the add-on into one', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const section = page.getByRole('region', { name: 'Blender add-on' });
    const list = section.getByRole('list', { name: 'Blenders on this computer' });
    await list.waitFor({ timeout: 60_000 });
    const row = list.getByRole('listitem').first();
    series = /Blender (\d+\.\d+)/.exec((await row.textContent()) ?? '')![1]!;
    const install = row.getByRole('button', { name: `Install for Blender ${series}` });
    await install.scrollIntoViewIfNeeded();
    await shootSection(page, section, 'settings-addon');
    expect(await seriousAxeProblems(page, { include: '.addon-settings' })).toEqual([]);

    await install.click();
    const remove = row.getByRole('button', { name: `Remove from Blender ${series}` });
    await remove.waitFor({ timeout: 120_000 });
    expect(await row.textContent()).toContain('Installed');
    await access(join(scripts, 'addons', 'renderdrop_blender', '__init__.py'));
    await shootSection(page, section, 'settings-addon-installed');
    expect(await seriousAxeProblems(page, { include: '.addon-settings' })).toEqual([]);
  });

  it('the add-on installed from Settings hands the scene open in Blender to this app, then shows its progress and opens its frames folder', async () => {
    const scene = await makeSampleScene(scenes, { missingTexture: false, name: 'sent-from-blender.blend' });
    const env = { HOME: process.env.HOME, PATH: '/usr/bin:/bin', RENDERDROP_CONFIG_DIR: app.dir, BLENDER_USER_SCRIPTS: scripts, BLENDER_USER_CONFIG: blenderConfig };
    const script = join(ROOT, 'test', 'fixtures', 'blender', 'drive-addon-session.py');
    const running = run(requireBlender()!, ['-b', scene, '--python-exit-code', '1', '--python', script, '--', 'send-follow'], env);
    await page.getByRole('button', { name: 'Queue' }).click();
    await queueRow(page, 'sent-from-blender.blend').waitFor({ timeout: 30_000 });
    const sheet = page.getByRole('dialog', { name: 'Review sent-from-blender.blend' });
    await sheet.waitFor({ timeout: 120_000 });
    // Enough samples that the render lasts a few of the add-on's one-second looks, so it sees frames
    // come in, not only the end.
    await sheet.getByLabel('Samples').fill('64');
    await sheet.getByLabel('Resolution %').fill('400');
    await sheet.getByLabel('Frames').fill('1-4');
    await sheet.getByRole('button', { name: 'Start render' }).click();
    await queueRow(page, 'sent-from-blender.blend').getByText('Downloaded').waitFor({ timeout: 180_000 });
    const ran = await running;
    const line = ran.stdout.split('\n').find((l) => l.startsWith('FINAL '));
    expect(line, `${ran.stdout}\n${ran.stderr}`).toBeDefined();
    const final = JSON.parse(line!.slice('FINAL '.length));
    expect(final).toMatchObject({ phase: 'completed', done: 4, total: 4 });
    expect(final.statusTexts.some((text: string) => /^Renderdrop: [0-3]\/4 frames/.test(text)), final.statusTexts.join(' | ')).toBe(true);
    expect((await readdir(final.framesDir)).filter((name: string) => name.endsWith('.png'))).toHaveLength(4);
    expect(final.preview, 'the last frame shown in the panel').not.toBeNull();
    expect(final.started.filter((name: string) => ['status', 'watch', 'submit'].includes(name))).toEqual([]);
  });

  it('removes the add-on from that Blender again in Settings', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const row = page.getByRole('region', { name: 'Blender add-on' }).getByRole('list', { name: 'Blenders on this computer' }).getByRole('listitem').first();
    const remove = row.getByRole('button', { name: `Remove from Blender ${series}` });
    await remove.click({ timeout: 60_000 });
    await row.getByRole('button', { name: `Install for Blender ${series}` }).waitFor({ timeout: 120_000 });
    await expect(access(join(scripts, 'addons', 'renderdrop_blender'))).rejects.toThrow();
  });
});

/** Screenshots of the section at 800, 1024 and 1440 px wide, each checked for sideways scrolling. */
async function shootSection(page: Page, section: Locator, name: string): Promise<void> {
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    await section.scrollIntoViewIfNeeded();
    expect(await page.evaluate(HORIZONTAL_OVERFLOW), `${name} scrolls sideways at ${size.width}`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${size.width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
