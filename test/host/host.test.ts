import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { SubmissionJournal } from '../../src/core/journal/submission-journal';
import { MemorySecretStore } from '../../src/core/secrets/memory-secret-store';
import { localKeyAccount } from '../../src/host/profiles/local-node';
import { THIS_COMPUTER_PROFILE_ID } from '../../src/shared/contract/app-state';
import type { AppEvent } from '../../src/shared/contract/events';
import type { Job } from '../../src/shared/api/job';
import { FakeApi } from '../helpers/fake-api-server';
import { failWith, HostileServer, sendJson, serveFile } from '../helpers/hostile-server';
import { blendBytes, tempDir } from '../helpers/scene-files';
import { configWithFarm, startHost, type HostHarness } from './host-harness';

let harnesses: HostHarness[] = [];
let fakes: FakeApi[] = [];
let servers: HostileServer[] = [];

afterEach(async () => {
  for (const h of harnesses) await h.close();
  for (const f of fakes) await f.server.close();
  for (const s of servers) await s.close();
  harnesses = [];
  fakes = [];
  servers = [];
});

async function host(options: Parameters<typeof startHost>[0] = {}): Promise<HostHarness> {
  const h = await startHost(options);
  harnesses.push(h);
  return h;
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(join(entry.parentPath, entry.name));
  }
  return out;
}

async function cloudHost(options: ConstructorParameters<typeof FakeApi>[1] = {}): Promise<{ h: HostHarness; fake: FakeApi; profileId: string }> {
  const fake = await FakeApi.start(options);
  fakes.push(fake);
  const h = await host();
  const profile = await h.value('profiles.add', { name: 'Farm', baseUrl: fake.server.url, apiKey: 'RJ-farm-key-123' });
  await h.value('profiles.use', { profileId: profile.id });
  await h.host.ready();
  return { h, fake, profileId: profile.id };
}

/** Puts a job on the fake farm that this app did not submit (so the host does not know it yet). */
function addFarmJob(fake: FakeApi, fields: Partial<Job> = {}): Job {
  const now = new Date().toISOString();
  const job: Job = { id: `farm-${Math.random().toString(36).slice(2)}`, status: 'completed', workspaceId: 'w-1', createdAt: now, updatedAt: now, sceneFile: { fileName: 'elsewhere.blend' }, ...fields };
  fake.jobs.set(job.id, { job, slug: `slug-${job.id}`, completed: 2, total: 2, reads: 0, validateBodies: [], renderBodies: [] });
  return job;
}

async function stagedTokens(h: HostHarness): Promise<string[]> {
  return readdir(join(h.dir, 'staged')).catch(() => []);
}

describe('host: first run on "This computer"', () => {
  it('creates the local profile, starts the node and explains that Blender is missing', async () => {
    const h = await host();
    await h.host.ready();
    const state = await h.value('app.getState', {});
    expect(state.firstRun).toBe(true);
    expect(state.activeProfileId).toBe(THIS_COMPUTER_PROFILE_ID);
    const local = state.profiles.find((p) => p.id === THIS_COMPUTER_PROFILE_ID)!;
    expect(local).toMatchObject({ kind: 'local', name: 'This computer', hasKey: true, keyStorage: 'memory', baseUrl: h.host.localNodeUrl });
    expect(state.blender.found).toBe(false);
    expect(state.blender.hint).toMatch(/install/i);
    expect(state.connection.state).toBe('blender-missing');
    expect(state.configDir).toBe(h.dir);
    const submitted = await h.call('submissions.submit', { files: [{ path: join(h.dir, 'x.blend') }] });
    expect(submitted).toMatchObject({ ok: false, error: { kind: 'config', code: 'blender-missing' } });
  });

  it('keeps the node key in the secret store and in no file, and reuses it on the next start', async () => {
    const secrets = new MemorySecretStore();
    const dir = await tempDir('rd-host-keep-');
    const first = await host({ dir, secrets });
    const key = await secrets.get(localKeyAccount(join(dir, 'node')));
    expect(key).toMatch(/^RJ-/);
    const state = JSON.stringify(await first.value('app.getState', {}));
    expect(state).not.toContain(key!);
    await first.close();
    harnesses = harnesses.filter((x) => x !== first);
    for (const file of await filesUnder(dir)) {
      expect((await readFile(file)).includes(Buffer.from(key!)), file).toBe(false);
    }
    const second = await host({ dir, secrets });
    expect(await secrets.get(localKeyAccount(join(dir, 'node')))).toBe(key);
    const page = await second.value('jobs.list', {});
    expect(page.total).toBe(0);
  });

  it('puts settings and node data under RENDERDROP_CONFIG_DIR', async () => {
    const dir = await tempDir('rd-host-env-');
    const h = await startHost({ dir, configDir: undefined, env: { RENDERDROP_CONFIG_DIR: dir } });
    harnesses.push(h);
    expect((await stat(join(dir, 'config.json'))).isFile()).toBe(true);
    expect((await stat(join(dir, 'node', 'node.sqlite'))).isFile()).toBe(true);
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
    expect(config.profiles[0]).toMatchObject({ id: THIS_COMPUTER_PROFILE_ID, kind: 'local' });
  });

  it('rejects payloads that break the schema and names the field', async () => {
    const h = await host();
    const result = await h.call('settings.update', { autoDownload: 'yes' } as never);
    expect(result).toMatchObject({ ok: false, error: { kind: 'contract', code: 'invalid-request' } });
    expect(result.ok ? '' : result.error.message).toMatch(/^Automatic download:/);
  });
});

describe('host: profiles and keys', () => {
  it('stores a cloud key without ever returning it, and clears it', async () => {
    const h = await host();
    const profile = await h.value('profiles.add', { name: 'Studio farm', baseUrl: 'http://127.0.0.1:9/', apiKey: 'RJ-secret-value-1' });
    expect(profile).toMatchObject({ kind: 'cloud', hasKey: true, keyStorage: 'memory', baseUrl: 'http://127.0.0.1:9' });
    expect(JSON.stringify(h.events)).not.toContain('RJ-secret-value-1');
    expect(JSON.stringify(await h.value('app.getState', {}))).not.toContain('RJ-secret-value-1');
    expect(await h.value('profiles.hasKey', { profileId: profile.id })).toBe(true);
    expect((await h.value('profiles.clearKey', { profileId: profile.id })).hasKey).toBe(false);
    expect(await h.secrets.get(profile.id)).toBeNull();
    const refused = await h.call('profiles.setKey', { profileId: THIS_COMPUTER_PROFILE_ID, apiKey: 'RJ-whatever-123' });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'config', code: 'local-profile' } });
  });

  it('forgets a stored key when the profile moves to another server, and keeps it on a rename', async () => {
    const h = await host();
    const profile = await h.value('profiles.add', { name: 'Moving farm', baseUrl: 'http://127.0.0.1:9', apiKey: 'RJ-moving-key-123' });
    await h.value('profiles.update', { profileId: profile.id, name: 'Renamed farm' });
    expect(await h.secrets.get(profile.id)).toBe('RJ-moving-key-123');
    await h.value('profiles.update', { profileId: profile.id, baseUrl: 'http://127.0.0.1:9/' });
    expect(await h.secrets.get(profile.id)).toBe('RJ-moving-key-123');
    const moved = await h.value('profiles.update', { profileId: profile.id, baseUrl: 'http://127.0.0.1:10' });
    expect(moved.hasKey).toBe(false);
    expect(await h.secrets.get(profile.id)).toBeNull();
  });

  it('refuses to save a key the server rejects, and shows the key-rejected state for a stored key it rejects', async () => {
    const h = await host();
    await h.host.ready();
    const url = h.host.localNodeUrl!;
    const refused = await h.call('profiles.add', { name: 'Wrong key', baseUrl: url, apiKey: 'RJ-not-a-valid-key' });
    expect(refused.ok ? '' : refused.error.message).toMatch(/rejected this API key \(401\), so it was not saved/);
    expect((await h.value('app.getState', {})).profiles.map((p) => p.name)).not.toContain('Wrong key');
    const profile = await h.value('profiles.add', { name: 'Wrong key', baseUrl: url });
    const setKey = await h.call('profiles.setKey', { profileId: profile.id, apiKey: 'RJ-not-a-valid-key' });
    expect(setKey.ok).toBe(false);
    expect(await h.value('profiles.hasKey', { profileId: profile.id })).toBe(false);
    const typed = await h.value('profiles.testConnection', { profileId: profile.id, apiKey: 'RJ-not-a-valid-key' });
    expect(typed).toMatchObject({ ok: false, status: 401 });
    await h.secrets.set(profile.id, 'RJ-revoked-since-it-was-saved');
    const test = await h.value('profiles.testConnection', { profileId: profile.id });
    expect(test).toMatchObject({ ok: false, status: 401 });
    expect(test.message).toMatch(/rejected/);
    await h.value('profiles.use', { profileId: profile.id });
    await h.host.ready();
    const state = await h.value('app.getState', {});
    expect(state.connection.state).toBe('key-rejected');
    await h.waitFor((e) => e.name === 'connection.changed' && e.payload.state === 'key-rejected');
    const local = await h.value('profiles.testConnection', { profileId: THIS_COMPUTER_PROFILE_ID });
    expect(local).toMatchObject({ ok: true, jobCount: 0 });
  });

  it('reports an unreachable server with the time to the next try', async () => {
    const farm = await HostileServer.start();
    farm.route('GET', '/api/external/v1/jobs', (_req, res) => sendJson(res, 200, { jobs: [], pagination: { page: 1, pageSize: 1, total: 0, totalPages: 0 } }));
    const { dir, secrets } = await configWithFarm(farm.url, 'rd-gone-');
    await farm.close();
    const h = await host({ dir, secrets });
    const event = await h.waitFor((e) => e.name === 'connection.changed' && e.payload.state === 'unreachable', 20_000);
    expect(event.payload).toMatchObject({ state: 'unreachable' });
    expect((event.payload as { retryInSeconds: number }).retryInSeconds).toBeGreaterThanOrEqual(1);
  });

  it('sends a stored key only to its own server; another address needs the key typed in', async () => {
    const { h, fake, profileId } = await cloudHost();
    const stranger = await HostileServer.start();
    servers.push(stranger);
    stranger.route('GET', '/api/external/v1/jobs', (_req, res) => sendJson(res, 200, { jobs: [], pagination: { page: 1, pageSize: 1, total: 0, totalPages: 1 } }));
    const refused = await h.value('profiles.testConnection', { profileId, baseUrl: `${stranger.url}/` });
    expect(refused).toMatchObject({ ok: false, status: null });
    expect(refused.message).toMatch(/Enter the API key for/);
    expect(stranger.requests).toHaveLength(0);
    const typed = await h.value('profiles.testConnection', { profileId, baseUrl: stranger.url, apiKey: 'RJ-typed-key-456' });
    expect(typed.ok).toBe(true);
    expect(stranger.requests.map((r) => r.headers.authorization)).toEqual(['Bearer RJ-typed-key-456']);
    const listed = fake.count('GET', '/api/external/v1/jobs');
    const own = await h.value('profiles.testConnection', { profileId, baseUrl: `${fake.server.url.replace('http://', 'HTTP://')}/` });
    expect(own).toMatchObject({ ok: true, jobCount: 0 });
    expect(fake.count('GET', '/api/external/v1/jobs')).toBe(listed + 1);
  });
});

describe('host: submissions on a farm', () => {
  it('uploads, pauses at review, renders with the overrides, downloads and remembers the settings', async () => {
    const { h, fake } = await cloudHost({ frames: 3 });
    const dir = await tempDir('rd-host-scene-');
    const scene = join(dir, 'shot.blend');
    await writeFile(scene, blendBytes(200_000));
    const [result] = await h.value('submissions.submit', { files: [{ path: scene }] });
    expect(result).toMatchObject({ ok: true, name: 'shot.blend' });
    const submissionId = (result as { submissionId: string }).submissionId;
    await h.waitFor((e) => e.name === 'submission.updated' && e.payload.id === submissionId && e.payload.phase === 'review');
    expect(h.events.some((e) => e.name === 'transfer.progress' && e.payload.kind === 'upload' && e.payload.done && e.payload.bytes === 200_000)).toBe(true);
    const sheet = await h.value('submissions.review', { submissionId });
    expect(sheet).toMatchObject({ fileName: 'shot.blend', fromLastTime: false, defaults: { colorManagementPreset: 'default' } });
    await h.value('submissions.startRender', { submissionId, renderConfig: { colorManagementPreset: 'aces', sampleCount: 7 } });
    const done = await h.waitFor(
      (e): e is Extract<AppEvent, { name: 'job.updated' }> => e.name === 'job.updated' && e.payload.status === 'completed' && e.payload.download.state === 'done',
      20_000,
    );
    expect(done.payload).toMatchObject({ fileName: 'shot.blend', completedFrames: 3, totalFrames: 3, canSubmitAgain: true });
    const frames = await readdir(done.payload.download.dir!);
    expect(frames.sort()).toEqual(['frame_0001.png', 'frame_0002.png', 'frame_0003.png']);
    expect(done.payload.download.dir!.startsWith(join(h.dir, 'home', 'Renderdrop'))).toBe(true);
    const body = [...fake.jobs.values()][0]!.renderBodies[0];
    expect(body).toEqual({ requestedRenderConfig: { colorManagementPreset: 'aces', sampleCount: 7 } });
    await h.waitFor((e) => e.name === 'notification' && e.payload.level === 'success');
    expect(await h.value('scenes.lastSettings', { fileName: 'shot.blend' })).toEqual({ colorManagementPreset: 'aces', sampleCount: 7 });
    const page = await h.value('jobs.list', { filter: 'completed' });
    expect(page.counts).toMatchObject({ all: 1, completed: 1, active: 0 });
    const detail = await h.value('jobs.get', { jobId: done.payload.id });
    expect(detail.outputs.map((o) => o.state)).toEqual(['downloaded', 'downloaded', 'downloaded']);
    expect(await h.value('jobs.openFolder', { jobId: done.payload.id })).toBe(done.payload.download.dir);
    expect(h.opened).toEqual([done.payload.download.dir]);
    expect((await h.value('app.getState', {})).firstRun).toBe(false);
  });

  it('offers the last settings of a scene at the next review, and submit again reviews the job settings before rendering', async () => {
    const { h, fake } = await cloudHost({ frames: 1 });
    await h.value('settings.update', { autoDownload: false });
    const dir = await tempDir('rd-host-scene-');
    const scene = join(dir, 'again.blend');
    await writeFile(scene, blendBytes());
    const first = (await h.value('submissions.submit', { files: [{ path: scene }] }))[0] as { submissionId: string };
    await h.waitFor((e) => e.name === 'submission.updated' && e.payload.id === first.submissionId && e.payload.phase === 'review');
    await h.value('submissions.startRender', { submissionId: first.submissionId, renderConfig: { colorManagementPreset: 'default', sampleCount: 3 } });
    const completed = await h.waitFor((e): e is Extract<AppEvent, { name: 'job.updated' }> => e.name === 'job.updated' && e.payload.status === 'completed');
    expect(completed.payload.download.state).toBe('none');

    const second = (await h.value('submissions.submit', { files: [{ path: scene }] }))[0] as { submissionId: string };
    await h.waitFor((e) => e.name === 'submission.updated' && e.payload.id === second.submissionId && e.payload.phase === 'review');
    const sheet = await h.value('submissions.review', { submissionId: second.submissionId });
    expect(sheet.fromLastTime).toBe(true);
    expect(sheet.defaults).toMatchObject({ sampleCount: 3 });
    await h.value('submissions.discard', { submissionId: second.submissionId });
    await h.waitFor((e) => e.name === 'submission.updated' && e.payload.id === second.submissionId && e.payload.phase === 'discarded');

    const again = (await h.value('jobs.submitAgain', { jobId: completed.payload.id })) as { ok: true; submissionId: string };
    expect(again.ok).toBe(true);
    await h.waitFor((e) => e.name === 'submission.updated' && e.payload.id === again.submissionId && e.payload.phase === 'review');
    const review = await h.value('submissions.review', { submissionId: again.submissionId });
    expect(review).toMatchObject({ fromEarlierJob: true, fromLastTime: false, defaults: { sampleCount: 3 } });
    expect([...fake.jobs.values()].flatMap((j) => j.renderBodies)).toHaveLength(1);
    await h.value('submissions.startRender', { submissionId: again.submissionId, renderConfig: review.defaults });
    await h.waitFor((e) => e.name === 'job.updated' && e.payload.status === 'completed' && e.payload.id !== completed.payload.id);
    const bodies = [...fake.jobs.values()].flatMap((j) => j.renderBodies);
    expect(bodies.at(-1)).toEqual({ requestedRenderConfig: { colorManagementPreset: 'default', sampleCount: 3 } });
  });

  it('answers a preflight rejection per file, and accepts a file streamed in by token', async () => {
    const { h } = await cloudHost();
    const dir = await tempDir('rd-host-scene-');
    const fake = join(dir, 'notes.blend');
    await writeFile(fake, 'just some text, not a scene');
    const staged = await h.host.stageUpload('streamed.blend', Readable.from([blendBytes(10_000)]));
    const results = await h.value('submissions.submit', { files: [{ path: fake }, { token: staged.token }, { token: 'nonexistent-token-1234' }] });
    expect(results[0]).toMatchObject({ ok: false, name: 'notes.blend', error: { kind: 'preflight', code: 'not-blender' } });
    expect(results[1]).toMatchObject({ ok: true, name: 'streamed.blend' });
    expect(results[2]).toMatchObject({ ok: false, error: { code: 'unknown-upload' } });
  });

  it('reports a validation failure in plain words and can dismiss it', async () => {
    const { h } = await cloudHost({ failValidation: true });
    const dir = await tempDir('rd-host-scene-');
    const scene = join(dir, 'broken.blend');
    await writeFile(scene, blendBytes());
    const [result] = await h.value('submissions.submit', { files: [{ path: scene }] });
    const id = (result as { submissionId: string }).submissionId;
    const failed = await h.waitFor((e): e is Extract<AppEvent, { name: 'submission.updated' }> => e.name === 'submission.updated' && e.payload.id === id && e.payload.phase === 'failed');
    expect(failed.payload.error?.message).toMatch(/Cannot open the scene/);
    const job = await h.waitFor((e): e is Extract<AppEvent, { name: 'job.updated' }> => e.name === 'job.updated' && e.payload.status === 'failed');
    expect(job.payload.failure).toBe('Cannot open the scene.');
    expect(job.payload.failedStep).toBe('validation');
    expect(await h.value('submissions.dismiss', { submissionId: id })).toBe(true);
    expect(await h.value('submissions.list', {})).toEqual([]);
  });

  it('downloads a job whose first look-up failed, instead of staying stuck', async () => {
    const { h, fake } = await cloudHost();
    const job = addFarmJob(fake);
    fake.server.next('GET', `/api/external/v1/jobs/${job.id}`, failWith(400, 'Bad request'));
    expect((await h.call('jobs.download', { jobId: job.id })).ok).toBe(false);
    const summary = await h.value('jobs.download', { jobId: job.id });
    expect(summary.download).toMatchObject({ state: 'done', filesDone: 2, filesTotal: 2 });
    expect((await readdir(summary.download.dir!)).sort()).toEqual(['frame_0001.png', 'frame_0002.png']);
  });

  it('shows a preview image, but none behind a redirect and none whose body never ends', async () => {
    const { h, fake } = await cloudHost();
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    fake.server.route('GET', '/previews/ok.png', serveFile(png, { contentType: 'image/png' }));
    fake.server.route('GET', '/previews/moved', (_req, res) => {
      res.writeHead(302, { location: `${fake.server.url}/previews/ok.png`, 'content-length': 0 });
      res.end();
    });
    fake.server.route('GET', '/previews/endless.png', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(256 * 1024, 1);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const shown = addFarmJob(fake, { previewUrl: `${fake.server.url}/previews/ok.png` });
    const moved = addFarmJob(fake, { previewUrl: `${fake.server.url}/previews/moved` });
    const endless = addFarmJob(fake, { previewUrl: `${fake.server.url}/previews/endless.png` });
    expect(await h.value('jobs.preview', { jobId: shown.id })).toBe(`data:image/png;base64,${png.toString('base64')}`);
    expect(await h.value('jobs.preview', { jobId: moved.id })).toBeNull();
    expect(fake.count('GET', '/previews/ok.png')).toBe(1);
    expect(await h.value('jobs.preview', { jobId: endless.id })).toBeNull();
  });
});

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe('host: uploaded copies (browser mode)', () => {
  it('removes an uploaded file that submit refuses or cannot record', async () => {
    const { h } = await cloudHost();
    const text = await h.host.stageUpload('notes.blend', Readable.from([Buffer.from('just some text, not a scene')]));
    const [refused] = await h.value('submissions.submit', { files: [{ token: text.token }] });
    expect(refused).toMatchObject({ ok: false, name: 'notes.blend', error: { kind: 'preflight', code: 'not-blender' } });
    expect(await stagedTokens(h)).toEqual([]);

    const scene = await h.host.stageUpload('scene.blend', Readable.from([blendBytes(10_000)]));
    await rm(join(h.dir, 'submissions'), { recursive: true, force: true });
    await writeFile(join(h.dir, 'submissions'), 'not a folder');
    const [unrecorded] = await h.value('submissions.submit', { files: [{ token: scene.token }] });
    expect(unrecorded).toMatchObject({ ok: false, name: 'scene.blend' });
    expect(await stagedTokens(h)).toEqual([]);
  });

  it('removes an uploaded file when the whole submit is refused', async () => {
    const h = await host();
    await h.host.ready();
    const scene = await h.host.stageUpload('scene.blend', Readable.from([blendBytes()]));
    expect(await h.call('submissions.submit', { files: [{ token: scene.token }] })).toMatchObject({ ok: false, error: { code: 'blender-missing' } });
    expect(await stagedTokens(h)).toEqual([]);
  });

  it('keeps the uploaded copy of a failed job when its card is dismissed, so its row can still submit it again', async () => {
    const { h } = await cloudHost({ failValidation: true });
    const scene = await h.host.stageUpload('broken.blend', Readable.from([blendBytes()]));
    const [result] = await h.value('submissions.submit', { files: [{ token: scene.token }] });
    const id = (result as { submissionId: string }).submissionId;
    await h.waitFor((e) => e.name === 'submission.updated' && e.payload.id === id && e.payload.phase === 'failed');
    expect(await stagedTokens(h)).toEqual([scene.token]);
    const jobId = (await h.value('submissions.list', {})).find((s) => s.id === id)?.jobId ?? null;
    await h.value('submissions.dismiss', { submissionId: id });
    expect(await stagedTokens(h)).toEqual([scene.token]);
    if (jobId !== null) expect((await h.value('jobs.get', { jobId })).summary.canSubmitAgain).toBe(true);
    else expect(jobId).not.toBeNull();
  });

  it('keeps the uploaded copy for submit again, and says plainly when it was cleaned up', async () => {
    const { h } = await cloudHost({ frames: 1 });
    await h.value('settings.update', { autoDownload: false });
    const scene = await h.host.stageUpload('again.blend', Readable.from([blendBytes()]));
    await h.value('submissions.submit', { files: [{ token: scene.token }], renderConfig: { colorManagementPreset: 'default' } });
    const completed = await h.waitFor((e): e is Extract<AppEvent, { name: 'job.updated' }> => e.name === 'job.updated' && e.payload.status === 'completed');
    expect(await stagedTokens(h)).toEqual([scene.token]);
    await rm(join(h.dir, 'staged', scene.token), { recursive: true });
    const again = await h.call('jobs.submitAgain', { jobId: completed.payload.id });
    expect(again.ok).toBe(false);
    expect(again.ok ? '' : again.error.message).toMatch(/copy of again\.blend sent from the browser has been cleaned up.*Drop the file again/);
  });

  it('at start, removes the uploaded copies that no submission needs any more', async () => {
    const dir = await tempDir('rd-host-sweep-');
    const now = Date.now();
    const stage = async (token: string, ageMs: number): Promise<string> => {
      const folder = join(dir, 'staged', token);
      await mkdir(folder, { recursive: true });
      const path = join(folder, 'scene.blend');
      await writeFile(path, blendBytes());
      const at = new Date(now - ageMs);
      await utimes(path, at, at);
      await utimes(folder, at, at);
      return path;
    };
    const record = async (path: string, ageMs: number, patch: Parameters<SubmissionJournal['update']>[1]) => {
      const journal = new SubmissionJournal({ dataDir: dir, clock: { now: () => now - ageMs } });
      const created = await journal.create({ baseUrl: 'http://127.0.0.1:9', profileId: 'removed-profile', file: { path, name: 'scene.blend', size: 4096, mtimeMs: 0, fileType: 'blend' } });
      await journal.update(created.id, patch);
    };
    await record(await stage('unfinished-token-0001', 30 * DAY), 30 * DAY, { step: 'uploaded' });
    await record(await stage('recent-done-token-001', 30 * DAY), 2 * DAY, { step: 'downloaded', jobId: 'job-recent' });
    await record(await stage('old-done-token-000001', 30 * DAY), 9 * DAY, { step: 'downloaded', jobId: 'job-old' });
    await stage('orphan-token-00000001', 2 * HOUR);
    await stage('just-staged-token-001', 0);
    const h = await host({ dir });
    expect((await stagedTokens(h)).sort()).toEqual(['just-staged-token-001', 'recent-done-token-001', 'unfinished-token-0001']);
  });
});
