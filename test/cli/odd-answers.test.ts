import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes';
import { main } from '../../src/cli/index';
import { FakeApi } from '../helpers/fake-api-server';
import { readBody, sendJson } from '../helpers/hostile-server';
import { blendBytes, tempDir, writeScene } from '../helpers/scene-files';
import { parseSubmissions } from './helpers/cli-setup';
import { testDeps, type TestDeps } from './helpers/test-deps';

const P = '/api/external/v1';
const JOB_PATH = new RegExp(`^${P}/jobs/(?!progress$)[^/]+$`);
const ALWAYS = Number.POSITIVE_INFINITY;
const OTHER_ID = '99999999-8888-4777-8666-555555555555';

let api: FakeApi;
let t: TestDeps;
let scene: string;

beforeEach(async () => {
  api = await FakeApi.start();
  t = testDeps({ RENDERDROP_BASE_URL: api.server.url, RENDERDROP_API_KEY: 'RJ-odd-answers', RENDERDROP_CONFIG_DIR: await tempDir() });
  scene = await writeScene(await tempDir(), 'shot.blend', blendBytes(20_000));
});
afterEach(async () => {
  await api.server.close();
});

const run = (...args: string[]) => main(['node', 'renderdrop', ...args], t.deps);
const output = () => t.stdout() + t.stderr();

/** A job of the fake API as the server would send it, with `patch` applied. */
function jobLike(patch: Record<string, unknown> = {}) {
  const now = new Date().toISOString();
  return { id: OTHER_ID, status: 'rendering', workspaceId: 'w-1', createdAt: now, updatedAt: now, ...patch };
}

/** Creates a job on the fake API through its own routes and returns its id. */
async function createdJob(status: 'completed' | 'canceled' | 'rendering', frames = 3): Promise<string> {
  const upload = await fetch(`${api.server.url}${P}/uploads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fileName: 'shot.blend', fileType: 'blend' }) });
  const target = (await upload.json()) as { uploadUrl: string; slug: string };
  await fetch(target.uploadUrl, { method: 'PUT', body: 'BLENDER', headers: { 'content-length': '7' } });
  const created = await fetch(`${api.server.url}${P}/jobs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ slug: target.slug }) });
  const job = (await created.json()) as { id: string };
  const entry = api.jobs.get(job.id)!;
  entry.total = frames;
  entry.job = { ...entry.job, status, sceneFile: { fileName: 'shot.blend' } };
  return job.id;
}

describe('contract breaks are errors that name the answer', () => {
  it('submit --json exits 1 and says so when GET /jobs/{id} answers another job', async () => {
    api.server.next('GET', JOB_PATH, (_req, res) => sendJson(res, 200, { data: jobLike({ status: 'validated' }) }), ALWAYS);
    expect(await run('submit', scene, '--yes', '--json')).toBe(EXIT.failure);
    const [result] = parseSubmissions(t.stdout());
    expect(result.state).toBe('error');
    expect(result.error.message).toContain(`answered job ${OTHER_ID}`);
    expect(result.error.message).toMatch(/asked for job [0-9a-f-]{36}/);
  });

  it('watch exits 1 naming the job when the progress list names a job the server does not know', async () => {
    const id = await createdJob('rendering');
    api.server.next('GET', `${P}/jobs/progress`, (_req, res) => sendJson(res, 200, [{ jobId: OTHER_ID, completedFrames: 1, totalFrames: 4 }, { jobId: id, completedFrames: 1, totalFrames: 3 }]), ALWAYS);
    expect(await run('watch')).toBe(EXIT.failure);
    expect(t.stderr()).toContain(OTHER_ID);
    expect(t.stderr()).toContain('GET /jobs/progress');
    expect(output()).not.toMatch(/TypeError|Cannot set properties/);
  });

  it('watch exits 1 when GET /jobs/{id} answers another job', async () => {
    await createdJob('rendering');
    api.server.next('GET', JOB_PATH, (_req, res) => sendJson(res, 200, { data: jobLike() }), ALWAYS);
    expect(await run('watch')).toBe(EXIT.failure);
    expect(t.stderr()).toContain(`answered job ${OTHER_ID}`);
    expect(output()).not.toMatch(/TypeError|Cannot set properties/);
  });
});

describe('URLs the server hands out', () => {
  it('an upload URL that is not a URL is named as such, not as an unexpected error', async () => {
    api.server.next('POST', `${P}/uploads`, async (req, res) => {
      await readBody(req);
      sendJson(res, 201, { uploadUrl: 'not a url', slug: 'slug-x', expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    });
    expect(await run('submit', scene, '--yes')).toBe(EXIT.failure);
    expect(output()).toContain('the server returned an invalid URL');
    expect(output()).not.toContain('Unexpected error');
  });

  it('a download URL that is not a URL is named as such, not as a broken connection', async () => {
    const id = await createdJob('completed');
    api.server.next('GET', `${P}/jobs/${id}/downloads`, (_req, res) =>
      sendJson(res, 200, { frames: ['::nonsense::'], compositeNodes: [], frameOutputs: [{ url: '::nonsense::', fileName: 'a.png' }], compositeNodeOutputs: [], transforms: {} }),
    );
    expect(await run('download', id, '--dir', await tempDir())).toBe(EXIT.failure);
    expect(t.stderr()).toContain('the server returned an invalid URL');
    expect(t.stderr()).not.toMatch(/connection broke|resumes/);
  });

  it('an upload URL already expired when it arrives is the server\'s fault, not the computer\'s clock', async () => {
    api.server.next(
      'POST',
      `${P}/uploads`,
      async (req, res) => {
        await readBody(req);
        sendJson(res, 201, { uploadUrl: `${api.server.url}/storage/slug-old?sig=1`, slug: 'slug-old', expiresAt: '2001-01-01T00:00:00.000Z' });
      },
      ALWAYS,
    );
    expect(await run('submit', scene, '--yes')).toBe(EXIT.failure);
    expect(output()).toContain('had already expired when the server sent it');
    expect(output()).not.toContain("computer's clock");
    expect(api.count('POST', `${P}/uploads`)).toBe(2);
    expect(api.count('PUT', /^\/storage\//)).toBe(0);
  });
});

describe('answers the CLI reads only in part', () => {
  it('downloads the frames although the packaging entry of GET /downloads is odd', async () => {
    const id = await createdJob('completed', 2);
    api.server.next('GET', `${P}/jobs/${id}/downloads`, (_req, res) => {
      const url = (n: string) => `${api.server.url}/files/${id}/${n}`;
      sendJson(res, 200, {
        frames: [url('f1.png'), url('f2.png')],
        compositeNodes: [],
        frameOutputs: [{ url: url('f1.png'), fileName: 'f1.png' }, { url: url('f2.png'), fileName: 'f2.png' }],
        compositeNodeOutputs: [],
        transforms: { framesZipOutputs: {}, compositeNodesZip: 42 },
      });
    });
    const code = await run('download', id, '--dir', await tempDir(), '--json');
    expect(code, t.stderr()).toBe(EXIT.ok);
    expect(JSON.parse(t.stdout()).files.map((f: { relativePath: string }) => f.relativePath)).toEqual(['f1.png', 'f2.png']);
  });
});

describe('requests and words of the job commands', () => {
  it('cancel sends no body', async () => {
    const id = await createdJob('rendering');
    let body = -1;
    api.server.next('POST', `${P}/jobs/${id}/cancel`, async (req, res) => {
      body = (await readBody(req)).length;
      sendJson(res, 200, { data: jobLike({ id, status: 'canceled' }) });
    });
    expect(await run('cancel', id)).toBe(EXIT.ok);
    expect(body).toBe(0);
    const [request] = api.server.requestsTo('POST', `${P}/jobs/${id}/cancel`);
    expect(request!.headers['content-type']).toBeUndefined();
  });

  it('status <prefix> that names no job says so and sends no request for it', async () => {
    await createdJob('rendering');
    expect(await run('status', 'abcd1234')).toBe(EXIT.failure);
    expect(t.stderr()).toContain('No job starts with "abcd1234"');
    expect(api.count('GET', `${P}/jobs/abcd1234`)).toBe(0);
  });

  it('status <prefix> that several jobs share names them and asks for more of the id', async () => {
    const ids = ['abcd1111-0000-4000-8000-000000000001', 'abcd2222-0000-4000-8000-000000000002'];
    api.server.next('GET', new RegExp(`^${P}/jobs(\\?.*)?$`), (_req, res) =>
      sendJson(res, 200, { jobs: ids.map((id) => jobLike({ id })), pagination: { page: 1, pageSize: 100, total: 2, totalPages: 1 } }),
    );
    expect(await run('status', 'abcd')).toBe(EXIT.usage);
    expect(t.stderr()).toContain(`"abcd" is the start of 2 job ids (${ids.join(', ')}). Type more of the id.`);
    expect(api.count('GET', `${P}/jobs/abcd`)).toBe(0);
  });

  it('download of a canceled job without frames says it was canceled with no output', async () => {
    const id = await createdJob('canceled', 0);
    expect(await run('download', id, '--dir', await tempDir())).toBe(EXIT.failure);
    expect(t.stderr()).toContain('was canceled before it wrote any output');
    expect(t.stderr()).not.toContain('Wait until it is completed');
  });

  it('jobs never prints "Page 0 of 1"', async () => {
    await createdJob('rendering');
    api.server.next('GET', `${P}/jobs`, (_req, res) =>
      sendJson(res, 200, { jobs: [jobLike()], pagination: { page: 0, pageSize: 20, total: 1, totalPages: 1 } }),
    );
    expect(await run('jobs')).toBe(EXIT.ok);
    expect(t.stdout()).not.toContain('Page 0');
    expect(t.stdout()).toContain('1 job.');
  });
});

describe('messages built on the server\'s words', () => {
  it('end a job failure whose reason ends in a full stop with one full stop, not two', async () => {
    await api.server.close();
    const reason = { name: 'AmbiguousScene', type: 'scene', message: 'The zip holds several scenes (a.blend, b.blend). Keep one .blend at its top, or validate with {"scenePath": "<one of them>"}.' };
    api = await FakeApi.start({ failValidation: true, failedReason: reason });
    t = testDeps({ RENDERDROP_BASE_URL: api.server.url, RENDERDROP_API_KEY: 'RJ-odd-answers', RENDERDROP_CONFIG_DIR: await tempDir() });
    expect(await run('submit', scene, '--yes', '--json')).toBe(EXIT.jobFailed);
    const [result] = parseSubmissions(t.stdout());
    expect(result.error.message).toMatch(/^Job \S+ failed: AmbiguousScene \(scene\): The zip holds several scenes/);
    expect(result.error.message).toMatch(/"<one of them>"\}\.$/);
    expect(output()).not.toMatch(/\.\./);
  });
});
