/**
 * The queue with many jobs in Chromium: time to first paint of the queue and frame times while
 * scrolling, for the real UI (virtualised list, fed by a stand-in bridge with N job summaries) against
 * a reference measured in the same browser: a plain list of the same N rows written straight into the
 * DOM. Prints both and the ratio (UI / reference; below 1 means the UI is faster).
 *
 *   npm run bench -- ui-queue [--jobs=10000] [--frames=240] [--runs=3]
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildRenderer } from '../test/e2e/app-under-test';
import { launchChromium, requireChromium } from '../test/e2e/chromium';
import { checkUiQueue, refuseImpossible } from './lib/checks';
import { runBench } from './lib/cleanup';
import { intOption } from './lib/options';
import { fixed, loadNote, median, printTable, writeResults } from './lib/report';

const JOBS = intOption('jobs', 10_000);
const FRAMES = intOption('frames', 240);
const RUNS = intOption('runs', 3);

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

function serve(dir: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^\/+/, '');
    const file = join(dir, path === '' ? 'index.html' : path);
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A bridge in the page answering the calls the queue makes, with `count` synthetic jobs. */
function bridgeScript(count: number): string {
  return `(() => {
  const statuses = ['rendering', 'completed', 'completed', 'failed', 'canceled', 'validated', 'booting', 'completed'];
  const jobs = [];
  for (let i = 0; i < ${count}; i++) {
    const status = statuses[i % statuses.length];
    const at = new Date(Date.UTC(2026, 0, 1) + i * 60000).toISOString();
    jobs.push({ id: 'job-' + String(i).padStart(6, '0'), fileName: 'shot-' + i + '.blend', status, createdAt: at, updatedAt: at,
      startedAt: at, endedAt: status === 'rendering' ? null : at, completedFrames: i % 250, totalFrames: 250, normalizedSeconds: 12,
      failure: status === 'failed' ? 'Blender could not render the scene.' : null,
      download: { state: status === 'completed' ? 'done' : 'none', dir: null, filesDone: 0, filesTotal: 0, bytes: 0, error: null }, canSubmitAgain: true,
      failedStep: null, hasPreview: false, previewKey: null, warnings: [], estimate: null });
  }
  const counts = { all: jobs.length, active: 0, review: 0, completed: 0, failed: 0, canceled: 0 };
  const state = { version: 'bench', shell: 'desktop', firstRun: false, activeProfileId: 'p', configDir: '/tmp', keyStore: 'memory',
    profiles: [{ id: 'p', name: 'Bench', baseUrl: 'http://127.0.0.1:1', kind: 'cloud', hasKey: true, keyStorage: 'memory' }],
    settings: { downloadDir: '/tmp', downloadDirIsDefault: true, autoDownload: true, notifications: true, theme: 'dark' },
    connection: { state: 'ok' }, blender: { found: true, path: null, version: null, hint: null } };
  const answers = { 'app.getState': state, 'jobs.list': { jobs, total: jobs.length, counts, profileId: 'p' }, 'submissions.list': [] };
  window.renderdrop = {
    call: async (name) => (name in answers ? { ok: true, value: answers[name] } : { ok: false, error: { kind: 'unknown', message: name } }),
    subscribe: () => () => undefined,
  };
})();`;
}

/** Writes `count` rows as plain DOM (no virtualisation): the reference. */
function referencePage(count: number): string {
  return `<!doctype html><html><head><style>
  body{margin:0;background:#17181b;color:#e6e7ea;font:14px system-ui}
  #scroll{height:700px;overflow:auto}
  .row{display:grid;grid-template-columns:2fr 110px 2fr 90px 120px auto;gap:12px;height:56px;align-items:center;padding:0 12px;border-bottom:1px solid #353941}
  .bar{height:8px;background:#272a30}.fill{height:100%;background:#4c9aff}
  </style></head><body><div id="scroll"><div role="list" id="list"></div></div><script>
  const rows = [];
  for (let i = 0; i < ${count}; i++) rows.push('<div role="listitem" class="row" aria-label="shot-' + i + '.blend"><b>shot-' + i + '.blend</b><span>Completed</span>' +
    '<div class="bar" role="progressbar" aria-valuenow="' + (i % 100) + '"><div class="fill" style="width:' + (i % 100) + '%"></div></div><span>12 s</span><span>Downloaded</span><span><button>Open folder</button></span></div>');
  document.getElementById('list').innerHTML = rows.join('');
  </script></body></html>`;
}

/** Runs in the page: waits for the first painted list item and answers ms since navigation start. */
const FIRST_PAINT = `new Promise((resolve) => {
  const check = () => {
    if (document.querySelector('[role="listitem"]')) requestAnimationFrame(() => resolve(performance.now()));
    else requestAnimationFrame(check);
  };
  check();
})`;

/** Runs in the page: scrolls the list one step per frame and answers every frame's duration in ms. */
function scrollScript(selector: string, frames: number): string {
  return `new Promise((resolve) => {
  const el = document.querySelector(${JSON.stringify(selector)});
  const times = [];
  let last = performance.now();
  let n = 0;
  const step = (now) => {
    times.push(now - last);
    last = now;
    el.scrollTop += 400;
    if (++n < ${frames}) requestAnimationFrame(step);
    else resolve(times.slice(1));
  };
  requestAnimationFrame((now) => { last = now; requestAnimationFrame(step); });
})`;
}

interface Sample {
  page: 'UI' | 'plain DOM list';
  firstPaintMs: number;
  /** Scroll frames timed (every frame after the first). */
  framesMeasured: number;
  frameMedianMs: number;
  frameP95Ms: number;
  frameMaxMs: number;
  slowFrames: number;
}

function summarise(page: Sample['page'], firstPaintMs: number, frames: number[]): Sample {
  const sorted = [...frames].sort((a, b) => a - b);
  return {
    page,
    firstPaintMs,
    framesMeasured: frames.length,
    frameMedianMs: median(frames),
    frameP95Ms: sorted[Math.floor(sorted.length * 0.95)] ?? Number.NaN,
    frameMaxMs: sorted.at(-1) ?? Number.NaN,
    slowFrames: frames.filter((f) => f > 50).length,
  };
}

async function measureUi(browser: Browser, url: string): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(bridgeScript(JOBS));
  const page: Page = await context.newPage();
  await page.goto(url, { waitUntil: 'commit' });
  const firstPaint = (await page.evaluate(FIRST_PAINT)) as number;
  const rendered = await page.locator('[role="listitem"]').count();
  if (rendered === 0 || rendered > 200) throw new Error(`expected a virtualised list, found ${rendered} rows in the DOM`);
  const frames = (await page.evaluate(scrollScript('[data-testid="queue-scroll"]', FRAMES))) as number[];
  await context.close();
  return summarise('UI', firstPaint, frames);
}

async function measureReference(browser: Browser, url: string): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'commit' });
  const firstPaint = (await page.evaluate(FIRST_PAINT)) as number;
  const frames = (await page.evaluate(scrollScript('#scroll', FRAMES))) as number[];
  await context.close();
  return summarise('plain DOM list', firstPaint, frames);
}

async function main(): Promise<void> {
  if (!requireChromium()) throw new Error('Chromium is needed for this benchmark (apt-get install chromium).');
  console.log(`UI queue: ${JOBS} jobs, ${FRAMES} scroll frames, ${RUNS} runs. ${loadNote()}`);
  const dir = await buildRenderer();
  const ui = await serve(dir);
  const reference = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(referencePage(JOBS)));
  await new Promise<void>((resolve) => reference.listen(0, '127.0.0.1', () => resolve()));
  const browser = await launchChromium();
  const uiUrl = `http://127.0.0.1:${(ui.address() as AddressInfo).port}/`;
  const refUrl = `http://127.0.0.1:${(reference.address() as AddressInfo).port}/`;
  const uiSamples: Sample[] = [];
  const refSamples: Sample[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      refSamples.push(await measureReference(browser, refUrl));
      uiSamples.push(await measureUi(browser, uiUrl));
    }
  } finally {
    await browser.close();
    ui.close();
    reference.close();
  }
  refuseImpossible('ui-queue', checkUiQueue({ frames: FRAMES, samples: [...uiSamples, ...refSamples] }));
  type Measure = Exclude<keyof Sample, 'page'>;
  const med = (samples: Sample[], key: Measure) => median(samples.map((s) => s[key]));
  const keys: [Measure, string][] = [
    ['firstPaintMs', 'first paint of the queue (ms)'],
    ['frameMedianMs', 'scroll frame, median (ms)'],
    ['frameP95Ms', 'scroll frame, p95 (ms)'],
    ['frameMaxMs', 'scroll frame, max (ms)'],
    ['slowFrames', `frames over 50 ms (of ${FRAMES - 1})`],
  ];
  printTable(
    `Queue with ${JOBS} jobs (median of ${RUNS} runs)`,
    ['measure', 'UI', 'plain DOM list', 'ratio UI/plain'],
    keys.map(([key, label]) => [label, fixed(med(uiSamples, key), 1), fixed(med(refSamples, key), 1), fixed(med(uiSamples, key) / med(refSamples, key), 2)]),
  );
  await writeResults('ui-queue', {
    jobs: JOBS,
    frames: FRAMES,
    runs: RUNS,
    ui: uiSamples,
    reference: refSamples,
    medians: Object.fromEntries(keys.map(([key]) => [key, { ui: med(uiSamples, key), reference: med(refSamples, key) }])),
  });
}

await runBench(main);
