import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RenderConfig } from '../../src/shared/api/render-config';
import { probeBlender } from '../../src/render-node/blender/probe';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { HostileServer, sendJson } from '../helpers/hostile-server';
import { tempDir } from '../helpers/scene-files';
import { ARTIFACTS, openApp, type AppUnderTest } from './app-under-test';
import { seriousAxeProblems } from './axe-audit';
import { launchChromium, requireChromium } from './chromium';
import { SCREEN_SIZES } from './screen-sizes';

const blenderPath = requireBlender();
const ready = requireChromium() && blenderPath !== null;
const SIZES = SCREEN_SIZES;

/**
 * Blender as the node runs it, except that the render of a scene whose name holds "crash" is killed
 * (as a crash would end it) once its first frame is saved: a job that fails in Blender, with its lines.
 */
async function crashingBlender(dir: string, real: string): Promise<string> {
  const path = join(dir, 'blender-that-crashes');
  await writeFile(
    path,
    `#!/bin/sh
case "$*" in
  *crash*render.py*)
    for arg in "$@"; do case "$arg" in *.blend) scene="$arg" ;; esac; done
    frames="$(dirname "$(dirname "$scene")")/frames"
    "${real}" "$@" &
    pid=$!
    for i in $(seq 1 1200); do
      if ls "$frames" 2>/dev/null | grep -q png; then break; fi
      sleep 0.1
    done
    kill -SEGV $pid
    wait $pid
    exit 139 ;;
esac
exec "${real}" "$@"
`,
  );
  await chmod(path, 0o755);
  return path;
}

/** The parts of DOM elements the checks read (the tests are type-checked without the DOM library). */
interface Scrolled {
  scrollTop: number;
  clientHeight: number;
  offsetTop: number;
  scrollWidth: number;
  clientWidth: number;
}

async function submit(app: AppUnderTest, path: string, renderConfig: RenderConfig): Promise<string> {
  const [result] = await app.host.handlers['submissions.submit']({ files: [{ path }], renderConfig });
  expect(result?.ok).toBe(true);
  const name = path.split('/').pop()!;
  let id: string | undefined;
  await expect
    .poll(async () => (id = (await app.host.handlers['jobs.list']({ search: name })).jobs.find((j) => j.fileName === name)?.id), { timeout: 120_000 })
    .toBeTruthy();
  return id!;
}

async function statusOf(app: AppUnderTest, jobId: string): Promise<string> {
  return (await app.host.handlers['jobs.get']({ jobId })).summary.status;
}

async function openLog(page: Page, name: string): Promise<Locator> {
  const row = page.getByRole('list', { name: 'Render queue' }).getByRole('listitem', { name });
  await row.waitFor({ timeout: 120_000 });
  await row.getByRole('button', { name: `Details of ${name}` }).click();
  const detail = page.getByRole('complementary', { name: 'Job details' });
  await detail.getByRole('heading', { name }).waitFor();
  await detail.getByRole('tab', { name: 'Log' }).click();
  return detail;
}

describe.skipIf(!ready)("the Log tab shows what Blender printed (browser mode, local node, real Blender)", () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let scenes: string;

  beforeAll(async () => {
    browser = await launchChromium();
    scenes = await tempDir('rd-e2e-logs-');
    const info = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    app = await openApp(browser, { blender: { ...info, path: await crashingBlender(scenes, blenderPath!) } });
    page = app.page;
    await app.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await mkdir(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  it('a rendering job: the lines arrive while it renders; once completed, all of them, and Copy takes the whole log', async () => {
    const scene = await makeSampleScene(scenes, { frames: 6, missingTexture: false, name: 'log shot.blend', everySample: true });
    const jobId = await submit(app, scene, { colorManagementPreset: 'default', sampleCount: 1000, frameRanges: ['1-6'] });
    const detail = await openLog(page, 'log shot.blend');
    const lines = detail.getByLabel('What Blender printed');
    await expect.poll(async () => ((await lines.isVisible()) ? await lines.textContent() : ''), { timeout: 180_000 }).toMatch(/^Fra:1 /m);
    // The first lines were shown before the job ended.
    expect(await statusOf(app, jobId)).not.toBe('completed');
    await expect.poll(() => statusOf(app, jobId), { timeout: 300_000 }).toBe('completed');
    // Every frame's lines, whichever frame rendered last (frames render across the shot first), up to Blender's end.
    await expect.poll(async () => (await lines.textContent()) ?? '', { timeout: 10_000 }).toMatch(/^Saved: '<job>\/frames\/.*_0006\.png'/m);
    await expect.poll(async () => (await lines.textContent()) ?? '', { timeout: 10_000 }).toMatch(/^Blender quit$/m);
    const text = (await lines.textContent()) ?? '';
    expect(text).toMatch(/^── Scene analysis ──\n/);
    expect(text).toContain('── Render ──');
    expect(text).not.toContain(app.dir);
    await detail.getByRole('button', { name: 'Copy the whole log' }).click();
    await detail.getByRole('status').filter({ hasText: 'The whole log is copied.' }).waitFor();
    const log = await app.host.handlers['jobs.log']({ jobId });
    expect(log.kind).toBe('log');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(log.kind === 'log' ? log.text : null);
    await page.screenshot({ path: join(ARTIFACTS, 'job-log-completed-1280.png') });
    expect(await seriousAxeProblems(page)).toEqual([]);
  }, 400_000);

  it('a job Blender failed on opens on the lines that explain it; looked at in four sizes', async () => {
    const scene = await makeSampleScene(scenes, { frames: 8, missingTexture: false, name: 'crash test.blend', everySample: true });
    const jobId = await submit(app, scene, { colorManagementPreset: 'default', sampleCount: 6000, frameRanges: ['1-8'] });
    await expect.poll(() => statusOf(app, jobId), { timeout: 180_000 }).toBe('failed');
    const detail = await openLog(page, 'crash test.blend');
    const lines = detail.getByLabel('What Blender printed');
    await lines.waitFor();
    const text = (await lines.textContent()) ?? '';
    expect(text, text).toMatch(/^Fra:1 /m);
    const telling = lines.locator('.log-line-telling');
    await expect.poll(() => telling.count()).toBe(1);
    // The crash, which the node's closing line repeats.
    expect(await telling.textContent()).toBe('Segmentation fault\n');
    expect(text.trimEnd().split('\n').at(-1)).toMatch(/^── Failed: Blender stopped .*Segmentation fault\. ──$/);
    const inView = async () =>
      telling.evaluate((line: Scrolled, box: Scrolled) => line.offsetTop - box.offsetTop >= box.scrollTop && line.offsetTop - box.offsetTop < box.scrollTop + box.clientHeight, await lines.elementHandle());
    expect(await inView()).toBe(true);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.waitForTimeout(200);
      expect(await page.locator('body').evaluate((el: Scrolled) => el.scrollWidth - el.clientWidth), `${size.width}: sideways`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(ARTIFACTS, `job-log-failed-${size.width}.png`) });
      expect(await seriousAxeProblems(page), `${size.width}`).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 400_000);

  it("a farm that keeps no log: the tab says why the job failed and that there is no log", async () => {
    const farm = await HostileServer.start();
    const id = '0b8f6f4e-1a2b-4c3d-8e9f-0011223344aa';
    const job = {
      id,
      status: 'failed',
      workspaceId: 'ws',
      createdAt: new Date(Date.now() - 600_000).toISOString(),
      updatedAt: new Date().toISOString(),
      sceneFile: { fileName: 'farm shot.blend' },
      failedReason: { name: 'OutOfMemory', type: 'render', message: 'The render needed more memory than the machine has' },
    };
    farm.route('GET', '/api/external/v1/jobs', (_req, res) => sendJson(res, 200, { jobs: [job], pagination: { page: 1, pageSize: 100, total: 1, totalPages: 1 } }));
    farm.route('GET', '/api/external/v1/jobs/progress', (_req, res) => sendJson(res, 200, []));
    farm.route('GET', `/api/external/v1/jobs/${id}`, (_req, res) => sendJson(res, 200, { data: job }));
    farm.route('GET', `/api/external/v1/jobs/${id}/downloads`, (_req, res) => sendJson(res, 200, { frames: [], compositeNodes: [], frameOutputs: [], compositeNodeOutputs: [] }));
    try {
      const profile = await app.host.handlers['profiles.add']({ name: 'Farm without logs', baseUrl: farm.url, apiKey: 'RJ-farm-without-logs' });
      await app.host.handlers['profiles.use']({ profileId: profile.id });
      const detail = await openLog(page, 'farm shot.blend');
      const panel = detail.getByRole('tabpanel', { name: 'Log' });
      await panel.getByText('This farm keeps no log of what Blender printed.').waitFor({ timeout: 30_000 });
      expect(await panel.textContent()).toContain('Why it failed: The render needed more memory than the machine has.');
      expect(farm.requestsTo('GET', `/api/external/v1/node/jobs/${id}/log`).length).toBeGreaterThan(0);
      await page.screenshot({ path: join(ARTIFACTS, 'job-log-no-log-1280.png') });
      expect(await seriousAxeProblems(page)).toEqual([]);
    } finally {
      await app.host.handlers['profiles.use']({ profileId: 'this-computer' }).catch(() => undefined);
      await farm.close();
    }
  }, 120_000);
});
