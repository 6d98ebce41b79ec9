import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/api-client';
import { AbortError, NetworkError, SubmissionBusyError } from '../../../src/core/errors';
import { SubmissionJournal } from '../../../src/core/journal/submission-journal';
import type { SubmissionRecord, SubmissionStep } from '../../../src/core/journal/submission-record';
import { recordSubmission, Submission, type SubmissionClient, type SubmissionOptions } from '../../../src/core/submit/submission';
import { pollingWaiter } from '../../../src/core/submit/wait-for-job';
import { uploadFile } from '../../../src/core/upload/upload';
import { FakeApi, type FakeApiOptions } from '../../helpers/fake-api-server';
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

async function newRecord(): Promise<SubmissionRecord> {
  return recordSubmission(journal, { filePath: scenePath, baseUrl: api.server.url, profileId: null, download: { wanted: true, dir: null } });
}

function runner(record: SubmissionRecord, extra: Partial<SubmissionOptions> = {}) {
  return new Submission({ client, journal, record, downloadRoot, waitForJob: pollingWaiter(client, { intervalMs: 0 }), ...extra });
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
  const submission = runner(record);
  submission.on('step', ({ record: r }) => {
    if (r.step === step) controller.abort();
  });
  await expect(submission.run(controller.signal)).rejects.toBeInstanceOf(AbortError);
  return (await journal.get(record.id))!;
}

describe('Submission', () => {
  it('goes from file to downloaded frames, recording every step', async () => {
    await setup();
    const submission = runner(await newRecord());
    const steps: string[] = [];
    const uploads: number[] = [];
    submission.on('step', ({ record }) => steps.push(record.step));
    submission.on('upload', (p) => uploads.push(p.bytes));
    const done = await submission.run();
    expect(done.step).toBe('downloaded');
    expect(done.history.map((h) => h.step)).toEqual(['preflighted', 'upload-target', 'uploaded', 'creating-job', 'job-created', 'validate-requested', 'validated', 'render-requested', 'completed', 'downloaded']);
    expect(done.downloadedTo).toMatch(/Shot 010-[0-9a-f]{8}$/);
    expect((await readdir(done.downloadedTo!)).sort()).toEqual(['frame_0001.png', 'frame_0002.png', 'frame_0003.png']);
    expect(uploads.at(-1)).toBe(200_000);
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
      const done = await runner(stopped).run();
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
    await expect(runner(record).run()).rejects.toBeInstanceOf(NetworkError);
    const stopped = (await journal.get(record.id))!;
    expect(stopped.step).toBe('creating-job');
    const done = await runner(stopped).run();
    expect(done.step).toBe('downloaded');
    expect(api.count('POST', `${P}/jobs`)).toBe(1);
    expect(api.jobs.size).toBe(1);
  });

  it('recovers through a 409 conflict naming the existing job', async () => {
    await setup({ conflictOnDuplicateSlug: true, bareSceneFile: true });
    api.dropNextCreateAnswer = true;
    const record = await newRecord();
    await expect(runner(record).run()).rejects.toBeInstanceOf(NetworkError);
    const notices: string[] = [];
    const resumed = runner((await journal.get(record.id))!);
    resumed.on('notice', ({ message }) => notices.push(message));
    const done = await resumed.run();
    expect(done.step).toBe('downloaded');
    expect(api.jobs.size).toBe(1);
    expect(notices.join(' ')).toMatch(/already had job/);
  });

  it('recovers a job whose creation answer was lost by its creation time and file name', async () => {
    await setup();
    api.dropNextCreateAnswer = true;
    const record = await newRecord();
    await expect(runner(record).run()).rejects.toBeInstanceOf(NetworkError);
    const done = await runner((await journal.get(record.id))!).run();
    expect(done.step).toBe('downloaded');
    expect(api.count('POST', `${P}/jobs`)).toBe(1);
  });

  it('uploads again (to a fresh target) when stopped in the middle of the upload', async () => {
    await setup();
    const record = await newRecord();
    const controller = new AbortController();
    const first = runner(record, { upload: (o) => uploadFile({ ...o, chunkBytes: 1024, progressIntervalMs: 0 }) });
    first.on('upload', (p) => {
      if (!p.done) controller.abort();
    });
    await expect(first.run(controller.signal)).rejects.toBeInstanceOf(AbortError);
    const stopped = (await journal.get(record.id))!;
    expect(stopped.step).toBe('upload-target');
    const done = await runner(stopped).run();
    expect(done.step).toBe('downloaded');
    expect(api.count('POST', `${P}/uploads`)).toBe(2);
    expect(api.jobs.size).toBe(1);
  });

  it('asks for confirmation with the analysis and renders with the answer', async () => {
    await setup();
    const seen: unknown[] = [];
    const done = await runner(await newRecord(), {
      confirm: async ({ analysis, renderConfig }) => {
        seen.push(analysis, renderConfig);
        return { colorManagementPreset: 'aces', frameRanges: ['1-3'] };
      },
    }).run();
    expect(seen).toEqual([{ scene: 'Scene', warnings: [] }, { colorManagementPreset: 'default' }]);
    expect(done.renderConfig).toEqual({ colorManagementPreset: 'aces', frameRanges: ['1-3'] });
    expect([...api.jobs.values()][0]!.renderBodies).toEqual([{ requestedRenderConfig: { colorManagementPreset: 'aces', frameRanges: ['1-3'] } }]);
  });

  it('ends as declined when the person says no', async () => {
    await setup();
    const done = await runner(await newRecord(), { confirm: async () => false }).run();
    expect(done).toMatchObject({ step: 'validated', ending: 'declined' });
    expect(api.count('POST', new RegExp(`${P}/jobs/.*/render`))).toBe(0);
  });

  it('ends as failed with the reason when validation fails', async () => {
    await setup({ failValidation: true });
    const done = await runner(await newRecord()).run();
    expect(done.ending).toBe('failed');
    expect(done.error?.message).toContain('SceneUnreadable');
  });

  it('stops after completion when no download is wanted', async () => {
    await setup();
    const record = await recordSubmission(journal, { filePath: scenePath, baseUrl: api.server.url, profileId: null });
    const done = await runner(record).run();
    expect(done.step).toBe('completed');
    expect(await readdir(downloadRoot)).toEqual([]);
  });

  it('puts the download where the record says, so a resumed download continues in the same folder', async () => {
    await setup();
    const record = await recordSubmission(journal, { filePath: scenePath, baseUrl: api.server.url, profileId: null, download: { wanted: true, dir: join(downloadRoot, 'mine') } });
    const done = await runner(record).run();
    expect(done.downloadedTo).toBe(join(downloadRoot, 'mine'));
  });

  it('never adopts the job of another submission of the same file when recovering a lost creation', async () => {
    await setup();
    const first = await runner(await newRecord()).run();
    const second = await diedBeforeCreating();
    const done = await runner(second).run();
    expect(done.step).toBe('downloaded');
    expect(done.jobId).not.toBe(first.jobId);
    expect(api.jobs.size).toBe(2);
    expect([...api.jobs.values()].map((j) => j.slug).sort()).toEqual([first.slug, done.slug].sort());
  });

  it('stops with the candidate jobs named when another unfinished submission of that file may own the job', async () => {
    await setup();
    api.dropNextCreateAnswer = true;
    const first = await newRecord();
    await expect(runner(first).run()).rejects.toBeInstanceOf(NetworkError);
    const [firstsJob] = [...api.jobs.keys()];
    const second = await diedBeforeCreating();
    const done = await runner(second).run();
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
    await expect(runner(record).run()).rejects.toBeInstanceOf(NetworkError);
    const [lost] = [...api.jobs.values()];
    const twin = { ...lost!, job: { ...lost!.job, id: 'job-from-elsewhere' }, slug: 'slug-elsewhere' };
    api.jobs.set(twin.job.id, twin);
    const done = await runner((await journal.get(record.id))!).run();
    expect(done.ending).toBe('failed');
    expect(done.error!.message).toMatch(/ jobs \S+, \S+ were made/);
    expect(done.error!.message).toContain(lost!.job.id);
    expect(done.error!.message).toContain('job-from-elsewhere');
    expect(api.jobs.size).toBe(2);
  });

  it('passes over a job of another computer\'s upload of the same name when the server names its slug', async () => {
    await setup({ slugInSceneFile: true });
    const elsewhere = await runner(await newRecord()).run();
    await journal.remove(elsewhere.id);
    const done = await runner(await diedBeforeCreating()).run();
    expect(done.step).toBe('downloaded');
    expect(api.jobs.size).toBe(2);
  });

  it('creates the job directly when the creation certainly never reached the server', async () => {
    await setup();
    const record = await runUntil(await newRecord(), 'uploaded');
    const neverSent = new NetworkError('Could not reach the server.', { code: 'ECONNREFUSED', maybeApplied: false });
    await expect(runner(record, { client: failingCreates(neverSent) }).run()).rejects.toBe(neverSent);
    const stopped = (await journal.get(record.id))!;
    expect(stopped).toMatchObject({ step: 'uploaded', jobIntentAt: null });
    const listed = api.count('GET', `${P}/jobs`);
    const done = await runner(stopped).run();
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
    await expect(runner(record).run()).rejects.toBeInstanceOf(SubmissionBusyError);
    expect(api.server.requests).toEqual([]);
    held.release();
    expect((await runner(record).run()).step).toBe('downloaded');
  });

  it('lets only one of two runs of the same submission do the work', async () => {
    await setup();
    const record = await newRecord();
    const other = new SubmissionJournal({ dataDir });
    const results = await Promise.allSettled([runner(record).run(), new Submission({ client, journal: other, record, downloadRoot, waitForJob: pollingWaiter(client, { intervalMs: 0 }) }).run()]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'busy' } });
    expect(api.count('PUT', /^\/storage\//)).toBe(1);
    expect(api.jobs.size).toBe(1);
  });

  it('continues from the step stored by another run, not from the record it was given', async () => {
    await setup();
    const record = await newRecord();
    await runUntil(record, 'job-created');
    const done = await runner(record).run();
    expect(done.step).toBe('downloaded');
    expect(api.count('POST', `${P}/uploads`)).toBe(1);
    expect(api.jobs.size).toBe(1);
  });
});
