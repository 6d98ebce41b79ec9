import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/api-client';
import { AbortError, AuthError, ContractError, InvalidStateError, NetworkError, NotFoundError, RateLimitedError, ServerError, serializeError } from '../../../src/core/errors';
import { FakeTime } from '../../helpers/fake-time';
import { HostileServer, cutConnection, failWith, rateLimited, readJson, sendJson } from '../../helpers/hostile-server';

const KEY = 'RJ-secret-test-key-123';
const JOB_ID = '0b8f6f4e-1a2b-4c3d-8e9f-001122334455';
const P = '/api/external/v1';

function job(overrides: Record<string, unknown> = {}) {
  return {
    id: JOB_ID,
    status: 'created',
    workspaceId: 'w-1',
    createdAt: '2025-01-01T00:00:00Z',
    updatedAt: '2025-01-01T00:00:00Z',
    rootFolderId: null,
    previewUrl: null,
    extraField: { anything: true },
    ...overrides,
  };
}

let server: HostileServer;
let time: FakeTime;
let client: ApiClient;

beforeEach(async () => {
  server = await HostileServer.start();
  time = new FakeTime();
  client = new ApiClient({ baseUrl: `${server.url}/`, apiKey: KEY, sleep: time.sleep, clock: time, random: () => 0.5 });
});
afterEach(() => server.close());

describe('ApiClient requests', () => {
  it('sends the bearer key, User-Agent and JSON, under the API prefix', async () => {
    server.route('POST', `${P}/uploads`, async (req, res) => {
      expect(await readJson(req)).toEqual({ fileName: 'scene.blend', fileType: 'blend' });
      sendJson(res, 201, { uploadUrl: 'http://x/put', slug: 's-1', expiresAt: '2025-01-01T01:00:00Z' });
    });
    const target = await client.createUpload({ fileName: 'scene.blend', fileType: 'blend' });
    expect(target.slug).toBe('s-1');
    const [request] = server.requests;
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.headers['user-agent']).toMatch(/^renderdrop\/\d+\.\d+\.\d+/);
    expect(request!.headers['content-type']).toContain('application/json');
  });

  it('covers every operation of the spec', async () => {
    server.route('POST', `${P}/jobs`, (_q, r) => sendJson(r, 201, job()));
    server.route('GET', `${P}/jobs`, (req, r) => {
      expect(req.url).toContain('page=2');
      expect(req.url).toContain('pageSize=5');
      expect(req.url).toContain('status=rendering');
      sendJson(r, 200, { jobs: [job({ status: 'rendering' })], pagination: { page: 2, pageSize: 5, total: 6, totalPages: 2 } });
    });
    server.route('GET', `${P}/jobs/progress`, (_q, r) => sendJson(r, 200, [{ jobId: JOB_ID, completedFrames: 1, totalFrames: 4 }]));
    server.route('GET', `${P}/jobs/${JOB_ID}`, (_q, r) => sendJson(r, 200, { data: job({ status: 'validated' }) }));
    server.route('POST', `${P}/jobs/${JOB_ID}/validate`, (_q, r) => sendJson(r, 200, job({ status: 'validating' })));
    server.route('POST', `${P}/jobs/${JOB_ID}/render`, async (req, r) => {
      expect(await readJson(req)).toEqual({ requestedRenderConfig: { colorManagementPreset: 'aces' } });
      sendJson(r, 200, job({ status: 'booting' }), { 'x-idempotent-replay': 'true' });
    });
    server.route('POST', `${P}/jobs/${JOB_ID}/cancel`, (_q, r) => sendJson(r, 200, { ok: true }));
    server.route('GET', `${P}/jobs/${JOB_ID}/progress`, (_q, r) => sendJson(r, 200, { jobId: JOB_ID, completedFrames: 2, totalFrames: 4 }));
    server.route('GET', `${P}/jobs/${JOB_ID}/downloads`, (_q, r) =>
      sendJson(r, 200, { frames: [], compositeNodes: [], frameOutputs: [], compositeNodeOutputs: [], transforms: {} }),
    );
    expect((await client.createJob('s-1')).status).toBe('created');
    expect((await client.listJobs({ page: 2, pageSize: 5, status: 'rendering' })).jobs).toHaveLength(1);
    expect(await client.getAllProgress()).toEqual([{ jobId: JOB_ID, completedFrames: 1, totalFrames: 4 }]);
    const fetched = await client.getJob(JOB_ID);
    expect(fetched.status).toBe('validated');
    expect((fetched as Record<string, unknown>).extraField).toEqual({ anything: true });
    expect((await client.validateJob(JOB_ID)).status).toBe('validating');
    expect(await client.renderJob(JOB_ID, { colorManagementPreset: 'aces' })).toMatchObject({ replayed: true, job: { status: 'booting' } });
    expect(await client.cancelJob(JOB_ID)).toBeNull();
    expect((await client.getProgress(JOB_ID)).completedFrames).toBe(2);
    expect((await client.getDownloads(JOB_ID)).frames).toEqual([]);
  });

  it('reports a render that was not a replay', async () => {
    server.route('POST', `${P}/jobs/${JOB_ID}/render`, (_q, r) => sendJson(r, 200, job({ status: 'booting' })));
    expect((await client.renderJob(JOB_ID, { colorManagementPreset: 'default' })).replayed).toBe(false);
  });
});

describe('ApiClient errors', () => {
  it('maps 401 and 403 to AuthError without the key in the message', async () => {
    server.next('GET', `${P}/jobs/${JOB_ID}`, failWith(401, `bad key ${KEY}`));
    const error = await client.getJob(JOB_ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).message).toContain('Update the key for this server.');
    expect((error as AuthError).message).not.toMatch(/`|renderdrop /);
    expect((error as AuthError).message).not.toContain(KEY);
    expect(JSON.stringify(serializeError(error))).not.toContain(KEY);
    server.next('GET', `${P}/jobs/${JOB_ID}`, failWith(403, 'forbidden'));
    await expect(client.getJob(JOB_ID)).rejects.toMatchObject({ kind: 'auth', status: 403 });
  });

  it('maps 404 to NotFoundError and 400 to InvalidStateError with the server message', async () => {
    server.next('GET', `${P}/jobs/${JOB_ID}`, failWith(404, 'no such job'));
    await expect(client.getJob(JOB_ID)).rejects.toBeInstanceOf(NotFoundError);
    server.next('POST', `${P}/jobs/${JOB_ID}/validate`, failWith(400, 'Job is already validated'));
    const error = (await client.validateJob(JOB_ID).catch((e: unknown) => e)) as InvalidStateError;
    expect(error).toBeInstanceOf(InvalidStateError);
    expect(error.message).toContain('Job is already validated');
    expect(error.toJSON()).toEqual({ kind: 'invalid-state', message: error.message, status: 400, code: 'status_400' });
  });

  it('keeps the job id of a 409 conflict', async () => {
    server.next('POST', `${P}/jobs`, failWith(409, 'slug already used', { jobId: JOB_ID }));
    await expect(client.createJob('s-1')).rejects.toMatchObject({ kind: 'invalid-state', existingJobId: JOB_ID });
  });

  it('turns a missing required field into a ContractError naming the operation and field', async () => {
    const broken = job();
    delete (broken as Record<string, unknown>).workspaceId;
    server.next('GET', `${P}/jobs/${JOB_ID}`, (_q, r) => sendJson(r, 200, { data: broken }));
    const error = (await client.getJob(JOB_ID).catch((e: unknown) => e)) as ContractError;
    expect(error).toBeInstanceOf(ContractError);
    expect(error.operation).toBe('GET /jobs/{id}');
    expect(error.path).toBe('data.workspaceId');
    expect(error.message).toContain('data.workspaceId');
  });

  it('turns a wrong type and non-JSON into ContractErrors', async () => {
    server.next('GET', `${P}/jobs/progress`, (_q, r) => sendJson(r, 200, [{ jobId: JOB_ID, completedFrames: 'three', totalFrames: 4 }]));
    await expect(client.getAllProgress()).rejects.toMatchObject({ kind: 'contract', path: '0.completedFrames' });
    server.next('GET', `${P}/jobs/progress`, (_q, r) => {
      r.writeHead(200, { 'content-type': 'text/html' });
      r.end('<html>proxy login</html>');
    });
    await expect(client.getAllProgress()).rejects.toMatchObject({ kind: 'contract', path: '' });
  });

  it('accepts null optional fields and unknown statuses fail clearly', async () => {
    server.next('GET', `${P}/jobs/${JOB_ID}`, (_q, r) => sendJson(r, 200, { data: job({ userId: null, failedReason: null, output: null, analysis: null }) }));
    await expect(client.getJob(JOB_ID)).resolves.toMatchObject({ id: JOB_ID });
    server.next('GET', `${P}/jobs/${JOB_ID}`, (_q, r) => sendJson(r, 200, { data: job({ status: 'exploded' }) }));
    await expect(client.getJob(JOB_ID)).rejects.toMatchObject({ kind: 'contract', path: 'data.status' });
  });
});

describe('ApiClient retries', () => {
  it('waits out a 429 storm honouring Retry-After seconds and dates', async () => {
    server.next('GET', `${P}/jobs/progress`, rateLimited('3'), 2);
    server.next('GET', `${P}/jobs/progress`, rateLimited(new Date(time.now() + 10_000).toUTCString()));
    server.route('GET', `${P}/jobs/progress`, (_q, r) => sendJson(r, 200, []));
    await expect(client.getAllProgress()).resolves.toEqual([]);
    expect(time.sleeps.slice(0, 2)).toEqual([3000, 3000]);
    expect(time.sleeps[2]).toBeGreaterThanOrEqual(3000);
    expect(time.sleeps[2]).toBeLessThanOrEqual(10_000);
  });

  it('backs off exponentially with jitter when 429 has no Retry-After, also for writes', async () => {
    server.next('POST', `${P}/jobs`, rateLimited(), 4);
    server.route('POST', `${P}/jobs`, (_q, r) => sendJson(r, 201, job()));
    await client.createJob('s-1');
    expect(time.sleeps).toEqual([250, 500, 1000, 2000]);
    expect(server.requestsTo('POST', `${P}/jobs`)).toHaveLength(5);
  });

  it('gives up after the 429 limit with a RateLimitedError', async () => {
    const limited = new ApiClient({ baseUrl: server.url, apiKey: KEY, sleep: time.sleep, clock: time, retry: { rateLimitRetries: 2 } });
    server.route('GET', `${P}/jobs/progress`, rateLimited('1'));
    await expect(limited.getAllProgress()).rejects.toBeInstanceOf(RateLimitedError);
    expect(server.requests).toHaveLength(3);
  });

  it('waits out a Retry-After of several minutes and tells onRetry how long', async () => {
    const seen: unknown[] = [];
    const patient = new ApiClient({ baseUrl: server.url, apiKey: KEY, sleep: time.sleep, clock: time, onRetry: (info) => seen.push(info) });
    server.next('GET', `${P}/jobs/progress`, rateLimited('600'));
    server.route('GET', `${P}/jobs/progress`, (_q, r) => sendJson(r, 200, []));
    await expect(patient.getAllProgress()).resolves.toEqual([]);
    expect(time.sleeps).toEqual([600_000]);
    expect(seen).toEqual([{ operation: 'GET /jobs/progress', attempt: 1, delayMs: 600_000, reason: 'rate-limited', status: 429 }]);
  });

  it('fails at once, saying when to try again, when Retry-After is beyond the longest wait', async () => {
    server.route('GET', `${P}/jobs/progress`, rateLimited('3600'));
    const error = (await client.getAllProgress().catch((e: unknown) => e)) as RateLimitedError;
    expect(error).toMatchObject({ kind: 'rate-limited', retryAfterMs: 3_600_000 });
    const at = new Date(time.now() + 3_600_000);
    const two = (n: number) => String(n).padStart(2, '0');
    const local = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;
    expect(error.message).toContain(`asks to wait 1 h 00 min: try again after ${local}.`);
    expect(error.message).not.toContain('in a minute');
    expect(time.sleeps).toEqual([]);
  });

  it('retries reads and render after 5xx and cut connections', async () => {
    server.next('GET', `${P}/jobs/${JOB_ID}`, failWith(503), 1);
    server.next('GET', `${P}/jobs/${JOB_ID}`, cutConnection, 1);
    server.route('GET', `${P}/jobs/${JOB_ID}`, (_q, r) => sendJson(r, 200, { data: job() }));
    await expect(client.getJob(JOB_ID)).resolves.toMatchObject({ id: JOB_ID });
    expect(server.requests).toHaveLength(3);
    server.next('POST', `${P}/jobs/${JOB_ID}/render`, failWith(502));
    server.route('POST', `${P}/jobs/${JOB_ID}/render`, (_q, r) => sendJson(r, 200, job({ status: 'booting' }), { 'x-idempotent-replay': 'true' }));
    await expect(client.renderJob(JOB_ID, { colorManagementPreset: 'default' })).resolves.toMatchObject({ replayed: true });
  });

  it('gives up on persistent 5xx with a ServerError', async () => {
    server.route('GET', `${P}/jobs/${JOB_ID}`, failWith(500, 'boom'));
    await expect(client.getJob(JOB_ID)).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(5);
  });

  it('does not repeat a write after a cut connection or a 5xx', async () => {
    server.route('POST', `${P}/jobs`, cutConnection);
    const error = (await client.createJob('s-1').catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.maybeApplied).toBe(true);
    expect(server.requestsTo('POST', `${P}/jobs`)).toHaveLength(1);
    server.route('POST', `${P}/uploads`, failWith(500));
    await expect(client.createUpload({ fileName: 'a.blend', fileType: 'blend' })).rejects.toBeInstanceOf(ServerError);
    expect(server.requestsTo('POST', `${P}/uploads`)).toHaveLength(1);
  });

  it('retries a write when the connection was refused (never sent)', async () => {
    const dead = await HostileServer.start();
    const url = dead.url;
    await dead.close();
    const offline = new ApiClient({ baseUrl: url, apiKey: KEY, sleep: time.sleep, clock: time, retry: { transientRetries: 2 } });
    const error = (await offline.createJob('s-1').catch((e: unknown) => e)) as NetworkError;
    expect(error).toMatchObject({ kind: 'network', code: 'ECONNREFUSED', maybeApplied: false });
    expect(time.sleeps).toHaveLength(2);
  });

  it('gives up on a server that never answers after its time limit, saying it timed out', async () => {
    server.route('GET', `${P}/jobs/${JOB_ID}`, () => undefined);
    const slow = new ApiClient({ baseUrl: server.url, apiKey: KEY, sleep: time.sleep, clock: time, timeoutMs: 200, retry: { transientRetries: 1 } });
    const error = (await slow.getJob(JOB_ID).catch((e: unknown) => e)) as NetworkError;
    expect(error).toMatchObject({ kind: 'network', code: 'ETIMEDOUT' });
    expect(error.message).toContain('timed out');
    expect(server.requestsTo('GET', `${P}/jobs/${JOB_ID}`)).toHaveLength(2);
  });

  it('stops a request in flight when the signal fires', async () => {
    server.route('GET', `${P}/jobs/${JOB_ID}`, () => undefined);
    const realClient = new ApiClient({ baseUrl: server.url, apiKey: KEY });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(realClient.getJob(JOB_ID, { signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
  });

  it('sends query parameters and keeps a base address with a path', async () => {
    const prefixed = new ApiClient({ baseUrl: `${server.url}/farm/`, apiKey: KEY });
    server.route('GET', `/farm${P}/jobs`, (req, r) => {
      expect(new URL(req.url!, 'http://x').searchParams.get('status')).toBe('failed');
      sendJson(r, 200, { jobs: [], pagination: { page: 1, pageSize: 20, total: 0, totalPages: 0 } });
    });
    expect((await prefixed.listJobs({ status: 'failed' })).jobs).toEqual([]);
  });

  it('aborts a wait as soon as the signal fires, even a long one', async () => {
    const realClient = new ApiClient({ baseUrl: server.url, apiKey: KEY });
    server.route('GET', `${P}/jobs/progress`, rateLimited('600'));
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    await expect(realClient.getAllProgress({ signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('tells onRetry listeners why it waits', async () => {
    const seen: unknown[] = [];
    const observed = new ApiClient({ baseUrl: server.url, apiKey: KEY, sleep: time.sleep, clock: time, onRetry: (info) => seen.push(info) });
    server.next('GET', `${P}/jobs/progress`, rateLimited('2'));
    server.route('GET', `${P}/jobs/progress`, (_q, r) => sendJson(r, 200, []));
    await observed.getAllProgress();
    expect(seen).toEqual([{ operation: 'GET /jobs/progress', attempt: 1, delayMs: 2000, reason: 'rate-limited', status: 429 }]);
  });
});
