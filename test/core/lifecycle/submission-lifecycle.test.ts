import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/api-client';
import { AbortError, NetworkError, SubmissionBusyError } from '../../../src/core/errors';
import { SubmissionJournal } from '../../../src/core/journal/submission-journal';
import type { SubmissionRecord, SubmissionStep } from '../../../src/core/journal/submission-record';
import type { SubmissionEvents } from '../../../src/core/lifecycle/lifecycle-events';
import type { LifecycleStop } from '../../../src/core/lifecycle/lifecycle-states';
import { recordForFile } from '../../../src/core/lifecycle/record-for-file';
import type { SubmissionClient } from '../../../src/core/lifecycle/step-context';
import { SubmissionLifecycle, type ClaimedSubmission, type LifecycleOptions } from '../../../src/core/lifecycle/submission-lifecycle';
import { pollingWaiter } from '../../../src/core/lifecycle/wait-for-job';
import { uploadFile } from '../../../src/core/upload/upload';
import type { RenderConfig } from '../../../src/shared/api/render-config';
import { FakeApi, type FakeApiOptions } from '../../helpers/fake-api-server';
import { sendJson, serveFile } from '../../helpers/hostile-server';
import { blendBytes, tempDir, writeScene } from '../../helpers/scene-files';

const P = '/api/external/v1';
let api: FakeApi;
let dataDir: string;
let downloadRoot: string;
let scenePath: string;
let journal: SubmissionJournal;
let client: ApiClient;

async function setup(options: FakeApiOptions = {}) {
  api = await FakeApi.start(options);
  client = new ApiClient({ baseUrl: api.server.url, apiKey: 'RJ-test', sleep: async () => undefined });
}

beforeEach(async () => {
  dataDir = await tempDir();
  downloadRoot = await tempDir();
  scenePath = await writeScene(await tempDir(), 'Shot 010.blend', blendBytes(200_000));
  journal = new SubmissionJournal({ dataDir });
});
afterEach(() => api?.server.close());

async function newRecord(download: SubmissionRecord['download'] = { wanted: true, dir: null }): Promise<SubmissionRecord> {
  return (await recordForFile(journal, { filePath: scenePath, baseUrl: api.server.url, profileId: null, download })).record;
}

function lifecycle(extra: Partial<LifecycleOptions> = {}) {
  return new SubmissionLifecycle({ client, journal, downloadRoot, waitForJob: pollingWaiter(client, { intervalMs: 0 }), ...extra });
}

interface RunOptions {
  until?: LifecycleStop;
  signal?: AbortSignal;
  renderConfig?: RenderConfig;
  options?: Partial<LifecycleOptions>;
  /** Sees the claimed submission before it advances (to listen to its events). */
  watch?: (claimed: ClaimedSubmission) => void;
}

/** Claims the submission, advances it to `until` (default: the end) and releases it. */
async function run(record: SubmissionRecord, o: RunOptions = {}): Promise<SubmissionRecord> {
  const claimed = await lifecycle(o.options).claim(record);
  o.watch?.(claimed);
  try {
    return await claimed.advance({ until: o.until ?? 'done', ...(o.signal ? { signal: o.signal } : {}), ...(o.renderConfig ? { renderConfig: o.renderConfig } : {}) });
  } finally {
    claimed.release();
  }
}

/** The events of one kind a run reports. */
function collect<K extends keyof SubmissionEvents>(event: K, into: SubmissionEvents[K][]): (claimed: ClaimedSubmission) => void {
  return (claimed) => void claimed.on(event, (payload) => into.push(payload));
}

/** The client, except that its next `createJob` calls fail with `errors` (in order) without sending anything. */
function failingCreates(...errors: Error[]): SubmissionClient {
  return new Proxy(client, {
    get(target, property) {
      if (property === 'createJob' && errors.length > 0) return async () => Promise.reject(errors.shift());
      const value = Reflect.get(target, property) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A second submission of the same file, uploaded, whose process died after recording the job creation intent and before sending it. */
async function diedBeforeCreating(): Promise<SubmissionRecord> {
  const record = await runUntil(await newRecord(), 'uploaded');
  return journal.advance(record.id, 'creating-job', { jobIntentAt: new Date().toISOString() });
}

/** Runs until the journal reaches `step`, then aborts as if the process were killed there. */
async function runUntil(record: SubmissionRecord, step: SubmissionStep): Promise<SubmissionRecord> {
  const controller = new AbortController();
  const watch = (claimed: ClaimedSubmission) =>
    void claimed.on('step', ({ record: r }) => {
      if (r.step === step) controller.abort();
    });
  await expect(run(record, { signal: controller.signal, watch })).rejects.toBeInstanceOf(AbortError);
  return (await journal.get(record.id))!;
}

describe('SubmissionLifecycle', () => {
  it('goes from file to downloaded frames, recording every step', async () => {
    await setup();
    const uploads: SubmissionEvents['upload'][] = [];
    const done = await run(await newRecord(), { watch: collect('upload', uploads) });
    expect(done.step).toBe('downloaded');
    expect(done.history.map((h) => h.step)).toEqual(['preflighted', 'packed', 'upload-target', 'uploaded', 'creating-job', 'job-created', 'validate-requested', 'validated', 'render-requested', 'completed', 'downloaded']);
    expect(done.downloadedTo).toMatch(/Shot 010-[0-9a-f]{8}$/);
    expect((await readdir(done.downloadedTo!)).sort()).toEqual(['frame_0001.png', 'frame_0002.png', 'frame_0003.png']);
    expect(uploads.at(-1)?.bytes).toBe(200_000);
    expect(api.count('PUT', /^\/storage\//)).toBe(1);
    expect(await journal.listUnfinished()).toEqual([]);
  });

  const cuts: SubmissionStep[] = ['upload-target', 'uploaded', 'job-created', 'validate-requested', 'validated', 'render-requested', 'completed'];
  for (const step of cuts) {
    it(`resumes after being stopped at "${step}" without a second upload or job`, async () => {
      await setup();
      const first = await newRecord();
      const stopped = await runUntil(first, step);
      expect(stopped.step).toBe(step);
      const done = await run(stopped);
      expect(done.step).toBe('downloaded');
      expect(api.count('POST', `${P}/jobs`)).toBe(1);
      expect(api.jobs.size).toBe(1);
      expect(api.count('PUT', /^\/storage\//)).toBe(1);
      expect((await readdir(done.downloadedTo!)).length).toBe(3);
    });
  }

  it('recovers a job whose creation answer was lost, by its slug, without creating another', async () => {
    await setup({ slugInSceneFile: true });
    api.dropNextCreateAnswer = true;
    const record = await newRecord();
    await expect(run(record)).rejects.toBeInstanceOf(NetworkError);
    const stopped = (await journal.get(record.id))!;
    expect(stopped.step).toBe('creating-job');
    const done = await run(stopped);
    expect(done.step).toBe('downloaded');
    expect(api.count('POST', `${P}/jobs`)).toBe(1);
    expect(api.jobs.size).toBe(1);
  });

  it('recovers through a 409 conflict naming the existing job', async () => {
    await setup({ conflictOnDuplicateSlug: true, bareSceneFile: true });
    api.dropNextCreateAnswer = true;
    const record = await newRecord();
    await expect(run(record)).rejects.toBeInstanceOf(NetworkError);
    const notices: { message: string }[] = [];
    const done = await run((await journal.get(record.id))!, { watch: collect('notice', notices) });
    expect(done.step).toBe('downloaded');
    expect(api.jobs.size).toBe(1);
    expect(notices.map((n) => n.message).join(' ')).toMatch(/already had job/);
  });

  it('recovers a job whose creation answer was lost by its creation time and file name', async () => {
    await setup();
    api.dropNextCreateAnswer = true;
    const record = await newRecord();
    await expect(run(record)).rejects.toBeInstanceOf(NetworkError);
    const done = await run((await journal.get(record.id))!);
    expect(done.step).toBe('downloaded');
    expect(api.count('POST', `${P}/jobs`)).toBe(1);
  });

  it('uploads again (to a fresh target) when stopped in the middle of the upload', async () => {
    await setup();
    const record = await newRecord();
    const controller = new AbortController();
    const watch = (claimed: ClaimedSubmission) =>
      void claimed.on('upload', (p) => {
        if (!p.done) controller.abort();
      });
    const options = { upload: (o: Parameters<typeof uploadFile>[0]) => uploadFile({ ...o, chunkBytes: 1024, progressIntervalMs: 0 }) };
    await expect(run(record, { signal: controller.signal, watch, options })).rejects.toBeInstanceOf(AbortError);
    const stopped = (await journal.get(record.id))!;
    expect(stopped.step).toBe('upload-target');
    const done = await run(stopped);
    expect(done.step).toBe('downloaded');
    expect(api.count('POST', `${P}/uploads`)).toBe(2);
    expect(api.jobs.size).toBe(1);
  });

  it('stops at review with the analysis, and renders with the settings the go-ahead brings', async () => {
    await setup();
    const claimed = await lifecycle().claim(await newRecord());
    const atReview = await claimed.advance({ until: 'validated' });
    expect(atReview).toMatchObject({ step: 'validated', ending: null });
    expect(api.count('POST', new RegExp(`${P}/jobs/.*/render`))).toBe(0);
    const proposal = await claimed.review();
    expect([proposal?.analysis, proposal?.renderConfig, proposal?.problem]).toEqual([{ scene: 'Scene', warnings: [] }, { colorManagementPreset: 'default' }, null]);
    const done = await claimed.advance({ until: 'done', renderConfig: { colorManagementPreset: 'aces', frameRanges: ['1-3'] } });
    claimed.release();
    expect(done.renderConfig).toEqual({ colorManagementPreset: 'aces', frameRanges: ['1-3'] });
    expect([...api.jobs.values()][0]!.renderBodies).toEqual([{ requestedRenderConfig: { colorManagementPreset: 'aces', frameRanges: ['1-3'] } }]);
  });

  it('ends as declined when the person says no', async () => {
    await setup();
    const claimed = await lifecycle().claim(await newRecord());
    await claimed.advance({ until: 'validated' });
    const done = await claimed.decline();
    claimed.release();
    expect(done).toMatchObject({ step: 'validated', ending: 'declined' });
    expect(api.count('POST', new RegExp(`${P}/jobs/.*/render`))).toBe(0);
  });

  it('ends as failed with the reason when validation fails', async () => {
    await setup({ failValidation: true });
    const done = await run(await newRecord());
    expect(done.ending).toBe('failed');
    expect(done.error?.message).toContain('SceneUnreadable');
  });

  it('stops after completion when no download is wanted', async () => {
    await setup();
    const done = await run(await newRecord({ wanted: false, dir: null }));
    expect(done.step).toBe('completed');
    expect(await readdir(downloadRoot)).toEqual([]);
  });

  it('puts the download where the record says, so a resumed download continues in the same folder', async () => {
    await setup();
    const done = await run(await newRecord({ wanted: true, dir: join(downloadRoot, 'mine') }));
    expect(done.downloadedTo).toBe(join(downloadRoot, 'mine'));
  });

  it('never adopts the job of another submission of the same file when recovering a lost creation', async () => {
    await setup();
    const first = await run(await newRecord());
    const second = await diedBeforeCreating();
    const done = await run(second);
    expect(done.step).toBe('downloaded');
    expect(done.jobId).not.toBe(first.jobId);
    expect(api.jobs.size).toBe(2);
    expect([...api.jobs.values()].map((j) => j.slug).sort()).toEqual([first.slug, done.slug].sort());
  });

  it('stops with the candidate jobs named when another unfinished submission of that file may own the job', async () => {
    await setup();
    api.dropNextCreateAnswer = true;
    const first = await newRecord();
    await expect(run(first)).rejects.toBeInstanceOf(NetworkError);
    const [firstsJob] = [...api.jobs.keys()];
    const second = await diedBeforeCreating();
    const done = await run(second);
    expect(done).toMatchObject({ step: 'creating-job', ending: 'failed', jobId: null, error: { kind: 'job-recovery-ambiguous' } });
    expect(done.error!.message).toContain(`job ${firstsJob}`);
    expect(done.error!.message).toContain('Shot 010.blend');
    expect(api.jobs.size).toBe(1);
    expect(api.count('POST', `${P}/jobs`)).toBe(1);
  });

  it('does not adopt by name and time when several jobs could be the lost one', async () => {
    await setup();
    api.dropNextCreateAnswer = true;
    const record = await newRecord();
    await expect(run(record)).rejects.toBeInstanceOf(NetworkError);
    const [lost] = [...api.jobs.values()];
    const twin = { ...lost!, job: { ...lost!.job, id: 'job-from-elsewhere' }, slug: 'slug-elsewhere' };
    api.jobs.set(twin.job.id, twin);
    const done = await run((await journal.get(record.id))!);
    expect(done.ending).toBe('failed');
    expect(done.error!.message).toMatch(/ jobs \S+, \S+ were made/);
    expect(done.error!.message).toContain(lost!.job.id);
    expect(done.error!.message).toContain('job-from-elsewhere');
    expect(api.jobs.size).toBe(2);
  });

  it('passes over a job of another computer\'s upload of the same name when the server names its slug', async () => {
    await setup({ slugInSceneFile: true });
    const elsewhere = await run(await newRecord());
    await journal.remove(elsewhere.id);
    const done = await run(await diedBeforeCreating());
    expect(done.step).toBe('downloaded');
    expect(api.jobs.size).toBe(2);
  });

  it('creates the job directly when the creation certainly never reached the server', async () => {
    await setup();
    const record = await runUntil(await newRecord(), 'uploaded');
    const neverSent = new NetworkError('Could not reach the server.', { code: 'ECONNREFUSED', maybeApplied: false });
    await expect(run(record, { options: { client: failingCreates(neverSent) } })).rejects.toBe(neverSent);
    const stopped = (await journal.get(record.id))!;
    expect(stopped).toMatchObject({ step: 'uploaded', jobIntentAt: null });
    const listed = api.count('GET', `${P}/jobs`);
    const done = await run(stopped);
    expect(done.step).toBe('downloaded');
    expect(api.count('GET', `${P}/jobs`)).toBe(listed);
    expect(api.jobs.size).toBe(1);
  });

  it('records that the job was not requested when stopped before the request left', async () => {
    await setup();
    const stopped = await runUntil(await newRecord(), 'creating-job');
    expect(stopped).toMatchObject({ step: 'uploaded', jobIntentAt: null });
    expect(api.count('POST', `${P}/jobs`)).toBe(0);
  });

  it('refuses to drive a submission another Renderdrop holds, and does nothing', async () => {
    await setup();
    const record = await newRecord();
    const held = await new SubmissionJournal({ dataDir }).lock(record.id);
    await expect(run(record)).rejects.toBeInstanceOf(SubmissionBusyError);
    expect(api.server.requests).toEqual([]);
    held.release();
    expect((await run(record)).step).toBe('downloaded');
  });

  it('lets only one of two runs of the same submission do the work', async () => {
    await setup();
    const record = await newRecord();
    const other = new SubmissionJournal({ dataDir });
    const results = await Promise.allSettled([run(record), run(record, { options: { journal: other } })]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'busy' } });
    expect(api.count('PUT', /^\/storage\//)).toBe(1);
    expect(api.jobs.size).toBe(1);
  });

  it('continues from the step stored by another run, not from the record it was given', async () => {
    await setup();
    const record = await newRecord();
    await runUntil(record, 'job-created');
    const done = await run(record);
    expect(done.step).toBe('downloaded');
    expect(api.count('POST', `${P}/uploads`)).toBe(1);
    expect(api.jobs.size).toBe(1);
  });

});

describe('SubmissionLifecycle stops', () => {
  it('stops at "render-requested" once the server has the render, without waiting for it', async () => {
    await setup();
    const handed = await run(await newRecord(), { until: 'render-requested' });
    expect(handed).toMatchObject({ step: 'render-requested', ending: null, renderConfig: { colorManagementPreset: 'default' } });
    const job = api.jobs.get(handed.jobId!)!;
    expect(job.renderBodies).toHaveLength(1);
    expect(job.job.status).not.toBe('completed');
    expect(await journal.listUnfinished()).toHaveLength(1);
    const done = await run(handed);
    expect(done.step).toBe('downloaded');
    expect(job.renderBodies).toHaveLength(1);
  });

  it('returns at once, taking nothing, when a stop is already behind the record', async () => {
    await setup();
    const handed = await run(await newRecord(), { until: 'render-requested' });
    const before = api.server.requests.length;
    const held = await new SubmissionJournal({ dataDir }).lock(handed.id);
    try {
      expect(await lifecycle().advance(handed, { until: 'validated' })).toBe(handed);
      expect(api.server.requests.length).toBe(before);
    } finally {
      held.release();
    }
  });

  it('ends at review when the job was canceled on the server meanwhile, with nothing to review', async () => {
    await setup();
    const claimed = await lifecycle().claim(await newRecord());
    const atReview = await claimed.advance({ until: 'validated' });
    const entry = api.jobs.get(atReview.jobId!)!;
    entry.job = { ...entry.job, status: 'canceled' };
    expect(await claimed.review()).toBeNull();
    claimed.release();
    expect(claimed.record).toMatchObject({ step: 'validated', ending: 'canceled' });
    expect(entry.renderBodies).toEqual([]);
  });

  it('moves on without review when the job is already rendering (started elsewhere)', async () => {
    await setup();
    const claimed = await lifecycle().claim(await newRecord());
    const atReview = await claimed.advance({ until: 'validated' });
    const entry = api.jobs.get(atReview.jobId!)!;
    entry.job = { ...entry.job, status: 'rendering' };
    expect(await claimed.review()).toBeNull();
    expect(claimed.record.step).toBe('render-requested');
    expect((await claimed.advance({ until: 'done' })).step).toBe('downloaded');
    claimed.release();
    expect(entry.renderBodies).toEqual([]);
  });

  it('refuses a camera the scene lacks before anything is sent, ending the submission', async () => {
    await setup();
    api.server.next('GET', new RegExp(`^${P}/jobs/[^/]+$`), async (_req, res) => {
      const [entry] = [...api.jobs.values()];
      entry!.job = { ...entry!.job, status: 'validated', analysis: { scene: 'Scene', cameras: ['Camera', 'CloseUp'] } };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: entry!.job }));
    });
    const claimed = await lifecycle().claim(await newRecord());
    await claimed.advance({ until: 'validated' });
    const proposal = await claimed.review({ renderConfig: { colorManagementPreset: 'default', activeCamera: 'Drone' } });
    expect(proposal?.problem).toMatch(/no camera "Drone" \(it has: Camera, CloseUp\)/);
    await expect(claimed.advance({ until: 'done', renderConfig: { colorManagementPreset: 'default', activeCamera: 'Drone' } })).rejects.toMatchObject({ kind: 'invalid-config' });
    claimed.release();
    expect(claimed.record).toMatchObject({ step: 'validated', ending: 'failed', error: { kind: 'invalid-config' } });
    expect(api.count('POST', new RegExp(`${P}/jobs/.*/render`))).toBe(0);
  });

  it('ends a submission whose upload the storage refuses (413), and keeps one whose URLs keep expiring', async () => {
    await setup();
    api.refuseStorage(413, { code: 'too_large', message: 'Entity too large' });
    const refused = await newRecord();
    await expect(run(refused)).rejects.toMatchObject({ kind: 'transfer', status: 413 });
    expect(await journal.get(refused.id)).toMatchObject({ ending: 'failed', error: { kind: 'transfer' } });
    api.refuseStorage(403, { code: 'AccessDenied', message: 'Request has expired' }, 4);
    const expiring = await newRecord();
    await expect(run(expiring)).rejects.toMatchObject({ kind: 'transfer', code: 'upload-url-expired' });
    expect(await journal.get(expiring.id)).toMatchObject({ ending: null, step: 'upload-target' });
  });
});


describe('SubmissionLifecycle with a Renderdrop node\'s frames route', () => {
  const WRITTEN = '2026-11-29T03:00:00.000Z';
  /** Each frame GET, with the job's status when it came. */
  let frameGets: { name: string; status: string; range: string | undefined }[];

  async function setupNode(frames: number) {
    await setup({ frames });
    frameGets = [];
    api.server.route('GET', new RegExp(`^${P}/node/jobs/[^/]+/frames$`), (req, res) => {
      const entry = api.jobs.get(req.url!.split('?')[0]!.split('/')[6]!)!;
      const names = Array.from({ length: entry.completed }, (_, i) => `frame_${String(i + 1).padStart(4, '0')}.png`);
      sendJson(res, 200, {
        jobId: entry.job.id,
        totalFrames: entry.total,
        frames: names.map((n, i) => ({ frame: i + 1, fileName: n, url: `${api.server.url}/files/${entry.job.id}/${n}`, previewUrl: null, size: api.frameContent(n).length, modifiedAt: WRITTEN })),
      });
    });
    api.server.next(
      'GET',
      /^\/files\//,
      (req, res) => {
        const [entry] = [...api.jobs.values()];
        const name = req.url!.split('/').pop()!;
        frameGets.push({ name, status: entry!.job.status, range: req.headers.range });
        return serveFile(api.frameContent(name))(req, res);
      },
      Number.MAX_SAFE_INTEGER,
    );
  }

  const slowLifecycle = (extra: Partial<LifecycleOptions> = {}) => ({ options: { waitForJob: pollingWaiter(client, { intervalMs: 40 }), ...extra } });

  it('brings each frame into the folder while the job renders, and the download at the end fetches none of them again', async () => {
    await setupNode(6);
    const onDisk: SubmissionEvents['framesOnDisk'][] = [];
    const done = await run(await newRecord(), { ...slowLifecycle(), watch: collect('framesOnDisk', onDisk) });
    expect(done.step).toBe('downloaded');
    const names = Array.from({ length: 6 }, (_, i) => `frame_${String(i + 1).padStart(4, '0')}.png`);
    expect((await readdir(done.downloadedTo!)).sort()).toEqual(names);
    expect(frameGets.filter((g) => g.status === 'rendering').length, 'frames fetched while the job rendered').toBeGreaterThan(0);
    expect(frameGets.map((g) => g.name).sort(), 'each frame fetched once').toEqual(names);
    expect(frameGets.filter((g) => g.range !== undefined)).toEqual([]);
    expect(onDisk.at(-1)).toMatchObject({ jobId: done.jobId, totalFrames: 6 });
    expect(Math.round((await stat(join(done.downloadedTo!, names[0]!))).mtimeMs)).toBe(Date.parse(WRITTEN));
  });

  it('after a stop while rendering, the next run keeps the frames already in the folder and fetches only the rest', async () => {
    await setupNode(8);
    const controller = new AbortController();
    const record = await newRecord();
    const watch = (claimed: ClaimedSubmission) =>
      void claimed.on('framesOnDisk', ({ onDisk }) => {
        if (onDisk >= 2) controller.abort();
      });
    await expect(run(record, { ...slowLifecycle(), signal: controller.signal, watch })).rejects.toBeInstanceOf(AbortError);
    const stopped = (await journal.get(record.id))!;
    expect(stopped.step).toBe('render-requested');
    const before = (await readdir(stopped.download.dir!)).filter((f) => f.endsWith('.png'));
    expect(before.length).toBeGreaterThanOrEqual(2);
    const done = await run(stopped, slowLifecycle());
    expect(done.step).toBe('downloaded');
    expect((await readdir(done.downloadedTo!)).filter((f) => f.endsWith('.png'))).toHaveLength(8);
    const gets = frameGets.map((g) => g.name);
    for (const name of before) expect(gets.filter((g) => g === name), `${name} fetched once`).toHaveLength(1);
  });

  it('without a download wanted, asks nothing of the frames route', async () => {
    await setupNode(3);
    const done = await run(await newRecord({ wanted: false, dir: null }), slowLifecycle());
    expect(done.step).toBe('completed');
    expect(api.count('GET', new RegExp(`^${P}/node/jobs/`))).toBe(0);
    expect(frameGets).toEqual([]);
  });
});
