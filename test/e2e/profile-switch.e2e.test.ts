import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { FileSecretStore, keyFilePath } from '../../src/core/secrets';
import { EncryptedFileSecretStore } from '../../src/main/keychain/encrypted-file-secret-store';
import { THIS_COMPUTER_PROFILE_ID } from '../../src/shared/contract/app-state';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { RefusingKeychain } from '../helpers/refusing-keychain';
import { FakeApi } from '../helpers/fake-api-server';
import { HostileServer } from '../helpers/hostile-server';
import { tempDir } from '../helpers/scene-files';
import { seriousAxeProblems } from './axe-audit';
import { ARTIFACTS, dropFiles, openApp, type AppUnderTest } from './app-under-test';
import { launchChromium, requireChromium } from './chromium';
import { SCREEN_SIZES } from './screen-sizes';

const ready = requireChromium() && requireBlender() !== null;

/** The window sizes the changed settings screens are looked at. */
const SIZES = SCREEN_SIZES;

const HORIZONTAL_OVERFLOW = `document.documentElement.scrollWidth - document.documentElement.clientWidth`;

/** Screenshots at every size, each checked for sideways scrolling, with `show` scrolled into view. */
async function shootAtEverySize(page: Page, name: string, show: Locator): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(200);
    await show.scrollIntoViewIfNeeded();
    expect(await page.evaluate(HORIZONTAL_OVERFLOW), `${name} scrolls sideways at ${size.width}x${size.height}`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${size.width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe.skipIf(!ready)('profile switches that fail leave the app working (Chromium, browser mode, local node, real Blender)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let farm: FakeApi;
  let downUrl: string;
  let queueBefore: string[];

  const queue = () => page.getByRole('list', { name: 'Render queue' });
  const picker = () => page.getByRole('banner').getByLabel('Render on');
  const addForm = () => page.getByRole('form', { name: 'Add a cloud profile' });
  const rowNames = () => queue().getByRole('listitem').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label') ?? ''));

  async function addProfile(name: string, baseUrl: string, apiKey: string): Promise<void> {
    const form = addForm();
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Server address').fill(baseUrl);
    await form.getByLabel('API key').fill(apiKey);
    await form.getByRole('button', { name: 'Add profile' }).click();
  }

  beforeAll(async () => {
    browser = await launchChromium();
    app = await openApp(browser, { secrets: new RefusingKeychain(), keyStore: 'keychain' });
    page = app.page;
    farm = await FakeApi.start();
    const down = await HostileServer.start();
    downUrl = down.url;
    await down.close();
    await mkdir(ARTIFACTS, { recursive: true });
    await page.getByRole('button', { name: 'Add files…' }).waitFor({ timeout: 30_000 });
  });

  afterAll(async () => {
    await app?.close();
    await farm?.server.close();
    await browser?.close();
  });

  it('renders on "This computer" with a keychain that refuses every call', async () => {
    const scenes = await tempDir('rd-e2e-switch-');
    const scene = await makeSampleScene(scenes, { missingTexture: false, name: 'kitchen.blend' });
    await dropFiles(page, [{ name: 'kitchen.blend', bytes: await readFile(scene) }]);
    const sheet = page.getByRole('dialog', { name: 'Review kitchen.blend' });
    await sheet.waitFor({ timeout: 120_000 });
    await sheet.getByLabel('Samples').fill('2');
    await sheet.getByLabel('Frames').fill('1-2');
    await sheet.getByRole('button', { name: 'Start render' }).click();
    const row = queue().getByRole('listitem', { name: 'kitchen.blend' });
    await row.getByText('Downloaded').waitFor({ timeout: 180_000 });
    queueBefore = await rowNames();
    expect(queueBefore).toEqual(['kitchen.blend']);
    const state = await app.host.handlers['app.getState']({});
    expect(state.profiles.find((p) => p.id === THIS_COMPUTER_PROFILE_ID)).toMatchObject({ hasKey: true, keyStorage: 'memory' });
  });

  it('does not add a profile whose key the keychain refused unless told where to keep it, and says which', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    await addProfile('Locked farm', farm.server.url, 'RJ-locked-key-123');
    const offer = addForm().getByRole('group', { name: 'Where to keep the key' });
    await offer.getByText(/^"Locked farm" was not added: the system keychain refused to store its key \(AccessDenied\)\./).waitFor({ timeout: 30_000 });
    expect(await offer.getByRole('button', { name: 'Keep it in an encrypted file' }).count()).toBe(0);
    await shootAtEverySize(page, 'profile-key-refused', offer);
    expect(await seriousAxeProblems(page)).toEqual([]);
    await offer.getByRole('button', { name: "Don't add it" }).click();
    await addForm().getByText('The profile was not added, and its key was not kept anywhere.').waitFor();
    expect(await page.getByRole('radio', { name: /Locked farm/ }).count()).toBe(0);
    expect((await app.host.handlers['app.getState']({})).profiles.map((p) => p.name)).not.toContain('Locked farm');

    await addForm().getByLabel('API key').fill('');
    await addForm().getByRole('button', { name: 'Add profile' }).click();
    await addForm().getByText('Added "Locked farm". Choose it above to use it.').waitFor();

    await addProfile('Night farm', downUrl, 'RJ-night-key-123');
    await addForm().getByRole('button', { name: 'Keep it until Renderdrop quits' }).click();
    await addForm().getByText(/^Added "Night farm"\. The system keychain refused its key, so it is kept only until Renderdrop quits/).waitFor();
    const night = page.locator('.card', { has: page.getByRole('radio', { name: /Night farm/ }) });
    await night.getByText('kept in memory until Renderdrop stops').waitFor();

    await addProfile('Studio farm', farm.server.url, 'RJ-studio-key-123');
    await addForm().getByRole('button', { name: 'Keep it until Renderdrop quits' }).click();
    await addForm().getByText(/^Added "Studio farm"\./).waitFor();
    expect(JSON.stringify(await app.host.handlers['app.getState']({}))).not.toContain('RJ-studio-key-123');
  });

  it('a switch to a farm that is down fails saying why, and the queue stays', async () => {
    await page.getByRole('button', { name: 'Queue' }).click();
    await picker().selectOption({ label: 'Night farm' });
    const toast = page.getByRole('region', { name: 'Notifications' }).getByRole('alert').filter({ hasText: 'Could not switch the profile' });
    await toast.getByText(/Could not switch to "Night farm": The server at http:\/\/127\.0\.0\.1:\d+ is not answering: nothing takes connections at that address\./).waitFor({ timeout: 30_000 });
    expect(await toast.textContent()).toContain('Renderdrop is still using "This computer".');
    await toast.getByRole('button', { name: 'Dismiss: Could not switch the profile' }).click();
    await expect.poll(() => picker().inputValue()).toBe(THIS_COMPUTER_PROFILE_ID);
    expect(await picker().isDisabled()).toBe(false);
    expect(await rowNames()).toEqual(queueBefore);
    await queue().getByRole('listitem', { name: 'kitchen.blend' }).getByText('Downloaded').waitFor();
    expect((await app.host.handlers['app.getState']({})).activeProfileId).toBe(THIS_COMPUTER_PROFILE_ID);
  });

  it('a switch to a farm whose key cannot be read fails with the keychain\'s reason, in its card', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('radio', { name: /Locked farm/ }).click();
    const card = page.locator('.card', { has: page.getByRole('radio', { name: /Locked farm/ }) });
    const alert = card.getByRole('alert').filter({ hasText: 'Could not switch to "Locked farm"' });
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toMatch(/The system keychain refused to give its API key \(AccessDenied\)\..*Renderdrop is still using "This computer"\./);
    await card.getByText('the system keychain refuses to give it').waitFor();
    await expect.poll(() => page.getByRole('radio', { name: /This computer/ }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: /Locked farm/ }).isChecked()).toBe(false);
    await shootAtEverySize(page, 'profile-switch-failed', card);
    expect(await seriousAxeProblems(page)).toEqual([]);
  });

  it('the next switches work: to a farm that answers, then "This computer" shows the queue as before', async () => {
    await page.getByRole('button', { name: 'Queue' }).click();
    await picker().selectOption({ label: 'Studio farm' });
    await page.getByTestId('empty-drop-zone').waitFor({ timeout: 30_000 });
    expect(await rowNames()).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'profile-switch-farm.png') });
    expect((await app.host.handlers['app.getState']({})).activeProfileId).not.toBe(THIS_COMPUTER_PROFILE_ID);
    expect(farm.count('GET', '/api/external/v1/jobs')).toBeGreaterThan(0);

    await picker().selectOption({ label: 'This computer' });
    await queue().getByRole('listitem', { name: 'kitchen.blend' }).getByText('Downloaded').waitFor({ timeout: 30_000 });
    expect(await rowNames()).toEqual(queueBefore);
    expect((await app.host.handlers['app.getState']({})).activeProfileId).toBe(THIS_COMPUTER_PROFILE_ID);
    await page.screenshot({ path: join(ARTIFACTS, 'profile-switch-back.png') });
  });
});

describe.skipIf(!ready)('a refused key kept in the encrypted file (Chromium, browser mode with the desktop app\'s fallback)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let farm: FakeApi;
  const keyFile = join(tmpdir(), `rd-e2e-keys-${process.pid}.json`);

  beforeAll(async () => {
    browser = await launchChromium();
    const sealed = new EncryptedFileSecretStore(keyFile, {
      encrypt: async (text) => Buffer.from([...Buffer.from(text)].reverse()),
      decrypt: async (data) => ({ text: Buffer.from([...data].reverse()).toString(), reEncrypt: false }),
    });
    app = await openApp(browser, { secrets: new RefusingKeychain(), keyStore: 'keychain', keyFallback: { kind: 'encrypted-file', secrets: sealed } });
    page = app.page;
    farm = await FakeApi.start();
    await mkdir(ARTIFACTS, { recursive: true });
    await page.getByRole('button', { name: 'Add files…' }).waitFor({ timeout: 30_000 });
  });

  afterAll(async () => {
    await app?.close();
    await farm?.server.close();
    await browser?.close();
    await rm(keyFile, { force: true });
  });

  it('offers the encrypted file with the reason, says where the key went, and the farm can be used', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Add a cloud profile' });
    await form.getByLabel('Name').fill('Studio farm');
    await form.getByLabel('Server address').fill(farm.server.url);
    await form.getByLabel('API key').fill('RJ-studio-key-123');
    await form.getByRole('button', { name: 'Add profile' }).click();
    const offer = form.getByRole('group', { name: 'Where to keep the key' });
    await offer.getByText(/or keep the key in an encrypted file in the settings folder, or only until Renderdrop quits\.$/).waitFor({ timeout: 30_000 });
    await shootAtEverySize(page, 'profile-key-offer-file', offer);
    expect(await seriousAxeProblems(page)).toEqual([]);
    await offer.getByRole('button', { name: 'Keep it in an encrypted file' }).click();
    await form.getByText(/^Added "Studio farm"\. The system keychain refused its key, so it is kept in an encrypted file in the settings folder\./).waitFor();
    expect(await readFile(keyFile, 'utf8')).not.toContain('RJ-studio-key-123');
    const card = page.locator('.card', { has: page.getByRole('radio', { name: /Studio farm/ }) });
    await card.getByText('stored encrypted in the settings folder').waitFor();

    await card.getByLabel('Replace the API key').fill('RJ-studio-key-456');
    await card.getByRole('button', { name: 'Save key' }).click();
    const again = card.getByRole('group', { name: 'Where to keep the key' });
    await again.getByText(/^The key of "Studio farm" was not saved: the system keychain refused to store it \(AccessDenied\)\./).waitFor({ timeout: 30_000 });
    await shootAtEverySize(page, 'profile-key-offer-card', again);
    expect(await seriousAxeProblems(page)).toEqual([]);
    await again.getByRole('button', { name: 'Keep it until Renderdrop quits' }).click();
    await card.getByText('Key kept only until Renderdrop quits: enter it again next time.').waitFor();
    await card.getByText('kept in memory until Renderdrop stops').waitFor();

    await page.getByRole('radio', { name: /Studio farm/ }).click();
    await expect.poll(async () => (await app.host.handlers['app.getState']({})).activeProfileId, { timeout: 30_000 }).not.toBe(THIS_COMPUTER_PROFILE_ID);
    await expect.poll(() => farm.server.requests.filter((r) => r.headers.authorization === 'Bearer RJ-studio-key-456').length, { timeout: 30_000 }).toBeGreaterThan(0);
  });
});

describe.skipIf(!ready)('a refused key kept in the key file (Chromium, browser mode)', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let farm: FakeApi;

  beforeAll(async () => {
    browser = await launchChromium();
    const dir = await tempDir('rd-e2e-keyfile-');
    app = await openApp(browser, { secrets: new RefusingKeychain(), keyStore: 'keychain', keyFallback: { kind: 'file', secrets: new FileSecretStore(keyFilePath(dir)) } });
    farm = await FakeApi.start();
    await mkdir(ARTIFACTS, { recursive: true });
    await app.page.getByRole('button', { name: 'Add files…' }).waitFor({ timeout: 30_000 });
  });

  afterAll(async () => {
    await app?.close();
    await farm?.server.close();
    await browser?.close();
  });

  it('offers the file with one sentence on what it means, and says where the key went', async () => {
    const page = app.page;
    await page.getByRole('button', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Add a cloud profile' });
    await form.getByLabel('Name').fill('Studio farm');
    await form.getByLabel('Server address').fill(farm.server.url);
    await form.getByLabel('API key').fill('RJ-studio-key-123');
    await form.getByRole('button', { name: 'Add profile' }).click();
    const offer = form.getByRole('group', { name: 'Where to keep the key' });
    await offer.getByText(/it is not encrypted: it is protected only by your user account/).waitFor({ timeout: 30_000 });
    await shootAtEverySize(page, 'profile-key-offer-keyfile', offer);
    expect(await seriousAxeProblems(page)).toEqual([]);
    await offer.getByRole('button', { name: 'Keep it in a file only I can read' }).click();
    await form.getByText(/^Added "Studio farm"\. The system keychain refused its key, so it is kept in keys\.json in the settings folder/).waitFor();
    const card = page.locator('.card', { has: page.getByRole('radio', { name: /Studio farm/ }) });
    await card.getByText('stored in keys.json in the settings folder (only your user account can read it)').waitFor();
  });
});
