import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { jobSchema, downloadsSchema, JOB_STATUSES } from '../../src/shared/api';
import { revokeKey, createKey } from '../../src/render-node/store/keys';
import { startTestNode, uploadBytes, type TestNode } from '../helpers/node';
import { putJobInStatus } from '../helpers/job-status';
import { sampleAnalysis } from '../fixtures/analysis';

const UUID_RE = /^[0-9a-f-]{36}$/;
const REQUIRED = ['id', 'status', 'workspaceId', 'createdAt', 'updatedAt'];
const OPTIONAL = ['userId', 'rootFolderId', 'normalizedSeconds', 'previewUrl', 'failedReason', 'requestedConfig', 'finalConfig', 'output', 'isAnalysisSkipped', 'analysisId', 'analysis', 'sceneFile'];

/** A raw HTTP request, for headers fetch will not send (no Content-Length, chunked, huge lengths). */
function rawRequest(url: string, opts: { method: string; headers: Record<string, string>; body?: Buffer; endEarly?: boolean }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: opts.method, headers: opts.headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    if (opts.body) req.write(opts.body);
    if (opts.endEarly) req.flushHeaders();
    else req.end();
  });
}

async function createdJob(t: TestNode, name = 'shot.blend'): Promise<any> {
  const slug = await uploadBytes(t, name, Buffer.from('BLENDER-v304 not really a scene'));
  const res = await t.call('POST', '/jobs', { slug });
  expect(res.status).toBe(201);
  return res.json;
}

/** A job moved straight to `validated` with a fixture analysis (no Blender on this node). */
async function validatedJob(t: TestNode): Promise<any> {
  const job = await createdJob(t);
  putJobInStatus(t.node.ctx, job.id, 'validated', { analysis: sampleAnalysis(), analysisId: crypto.randomUUID(), totalFrames: 3 });
  return job;
}

describe('render node API (no Blender)', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode({ blender: null });
  });
  afterAll(async () => {
    await t.stop();
  });

  describe('authentication', () => {
    const routes: [string, string][] = [
      ['POST', '/uploads'],
      ['POST', '/jobs'],
      ['GET', '/jobs'],
      ['GET', '/jobs/progress'],
      ['GET', '/jobs/00000000-0000-4000-8000-000000000000'],
      ['POST', '/jobs/00000000-0000-4000-8000-000000000000/validate'],
      ['POST', '/jobs/00000000-0000-4000-8000-000000000000/render'],
      ['POST', '/jobs/00000000-0000-4000-8000-000000000000/cancel'],
      ['GET', '/jobs/00000000-0000-4000-8000-000000000000/progress'],
      ['GET', '/jobs/00000000-0000-4000-8000-000000000000/downloads'],
    ];
    it.each(routes)('%s %s without a key is 401 with WWW-Authenticate: Bearer', async (method, path) => {
      const res = await fetch(t.api + path, { method });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const body: any = await res.json();
      expect(body.error.code).toBe('unauthorized');
      expect(typeof body.error.message).toBe('string');
    });
    it('a wrong key is 401', async () => {
      const res = await t.call('GET', '/jobs', undefined, { authorization: 'Bearer RJ-not-a-real-key' });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('invalid_token');
    });
    it('a revoked key is 401', async () => {
      const { key, info } = createKey(t.node.ctx.db, 'short-lived');
      expect((await t.call('GET', '/jobs', undefined, { authorization: `Bearer ${key}` })).status).toBe(200);
      revokeKey(t.node.ctx.db, info.id);
      expect((await t.call('GET', '/jobs', undefined, { authorization: `Bearer ${key}` })).status).toBe(401);
    });
  });

  describe('one error shape', () => {
    it('unknown route', async () => {
      const res = await t.call('GET', '/nope');
      expect(res.status).toBe(404);
      expect(res.json.error).toMatchObject({ code: 'route_not_found' });
    });
    it('bad JSON', async () => {
      const res = await t.call('POST', '/uploads', '{"fileName":', { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('invalid_json');
    });
    it('wrong content type', async () => {
      const res = await t.call('POST', '/uploads', 'fileName=a.blend', { 'content-type': 'application/x-www-form-urlencoded' });
      expect(res.status).toBe(415);
      expect(res.json.error.code).toBe('unsupported_media_type');
    });
    it('oversize body', async () => {
      const res = await t.call('POST', '/uploads', JSON.stringify({ fileName: 'a.blend', fileType: 'blend', pad: 'x'.repeat(1_100_000) }));
      expect(res.status).toBe(413);
      expect(res.json.error.code).toBe('body_too_large');
    });
  });

  describe('POST /uploads', () => {
    it('returns a presigned target', async () => {
      const res = await t.call('POST', '/uploads', { fileName: 'shot.blend', fileType: 'blend' });
      expect(res.status).toBe(201);
      expect(res.json.slug).toMatch(/^\S+$/);
      expect(res.json.uploadUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/storage\/uploads\/.+\?expires=\d+&key=[0-9a-f-]{36}&sig=[0-9a-f]{64}$/);
      expect(new Date(res.json.expiresAt).getTime()).toBeGreaterThan(Date.now());
    });
    it.each([
      [{ fileType: 'blend' }, 'fileName'],
      [{ fileName: '', fileType: 'blend' }, 'fileName'],
      [{ fileName: 'a.blend', fileType: 'obj' }, 'fileType'],
      [{ fileName: 'a.zip', fileType: 'blend' }, 'does not match'],
    ])('rejects %j', async (body, mention) => {
      const res = await t.call('POST', '/uploads', body);
      expect(res.status).toBe(400);
      expect(res.json.error.message).toContain(mention);
    });
  });

  describe('presigned PUT', () => {
    const target = async (fileName = 'shot.blend') => (await t.call('POST', '/uploads', { fileName, fileType: fileName.endsWith('.zip') ? 'zip' : 'blend' })).json;

    it('stores the exact bytes, without any Authorization header', async () => {
      const tgt = await target();
      const bytes = Buffer.from('BLENDER-v304' + 'x'.repeat(5000));
      const res = await fetch(tgt.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: bytes });
      expect(res.status).toBe(200);
      expect(Buffer.compare(await readFile(join(t.dataDir, 'uploads', tgt.slug)), bytes)).toBe(0);
      const leftovers = (await readdir(join(t.dataDir, 'uploads'))).filter((f) => f.startsWith('.part'));
      expect(leftovers).toEqual([]);
    });
    it('a tampered signature is 403', async () => {
      const tgt = await target();
      const url = tgt.uploadUrl.replace(/sig=([0-9a-f])/, (_: string, c: string) => `sig=${c === '0' ? '1' : '0'}`);
      const res = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: 'BLENDER' });
      expect(res.status).toBe(403);
      expect(((await res.json()) as any).error.code).toBe('signature_invalid');
    });
    it('a URL for another slug is 403', async () => {
      const a = await target();
      const b = await target();
      const url = a.uploadUrl.replace(a.slug, b.slug);
      const res = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: 'BLENDER' });
      expect(res.status).toBe(403);
    });
    it('an expired URL is 403 url_expired', async () => {
      const short = await startTestNode({ blender: null, uploadUrlTtlMs: 1 });
      try {
        const tgt = (await short.call('POST', '/uploads', { fileName: 'a.blend', fileType: 'blend' })).json;
        await new Promise((r) => setTimeout(r, 1100));
        const res = await fetch(tgt.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: 'BLENDER' });
        expect(res.status).toBe(403);
        expect(((await res.json()) as any).error.code).toBe('url_expired');
      } finally {
        await short.stop();
      }
    });
    it('chunked transfer encoding is refused', async () => {
      const tgt = await target();
      const res = await rawRequest(tgt.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' }, body: Buffer.from('BLENDER') });
      expect(res.status).toBe(411);
      expect(JSON.parse(res.body).error.code).toBe('length_required');
    });
    it('a wrong Content-Type is refused', async () => {
      const tgt = await target('bundle.zip');
      const res = await fetch(tgt.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: 'PK\u0003\u0004' });
      expect(res.status).toBe(415);
      expect(((await res.json()) as any).error.message).toContain('application/zip');
    });
    it('5 GiB or more is refused before any byte is stored', async () => {
      const tgt = await target();
      const res = await rawRequest(tgt.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', 'content-length': String(5 * 1024 ** 3) }, endEarly: true });
      expect(res.status).toBe(413);
      expect((await readdir(join(t.dataDir, 'uploads'))).some((f) => f.includes(tgt.slug))).toBe(false);
    });
    it('a dropped connection leaves nothing behind and the job cannot be created', async () => {
      const tgt = await target();
      await new Promise<void>((resolve) => {
        const req = httpRequest(tgt.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', 'content-length': '100000' } });
        req.on('error', () => resolve());
        req.write(Buffer.alloc(1000, 1));
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 100);
      });
      await new Promise((r) => setTimeout(r, 200));
      expect((await readdir(join(t.dataDir, 'uploads'))).filter((f) => f.includes(tgt.slug))).toEqual([]);
      const res = await t.call('POST', '/jobs', { slug: tgt.slug });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('upload_missing');
    });
  });

  describe('POST /jobs', () => {
    it('creates a job in status created with the service-facts shape', async () => {
      const job = await createdJob(t);
      expect(jobSchema.safeParse(job).success).toBe(true);
      for (const k of REQUIRED) expect(job[k]).toBeTruthy();
      for (const k of OPTIONAL) expect(k in job).toBe(true);
      expect(job.status).toBe('created');
      expect(job.id).toMatch(UUID_RE);
      expect(job.previewUrl).toBeNull();
      expect(job.failedReason).toBeNull();
      expect(job.sceneFile).toMatchObject({ fileName: 'shot.blend', fileType: 'blend' });
    });
    it('needs a slug', async () => {
      expect((await t.call('POST', '/jobs', {})).status).toBe(400);
      expect((await t.call('POST', '/jobs', { slug: '' })).status).toBe(400);
    });
    it('an unknown slug is 400', async () => {
      const res = await t.call('POST', '/jobs', { slug: 'u-nothing' });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('unknown_slug');
    });
    it('a slug whose upload never arrived is a clear 400', async () => {
      const tgt = (await t.call('POST', '/uploads', { fileName: 'a.blend', fileType: 'blend' })).json;
      const res = await t.call('POST', '/jobs', { slug: tgt.slug });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ code: 'upload_missing' });
      expect(res.json.error.message).toMatch(/has not arrived/);
    });
    it('a slug already used is 409 naming the job', async () => {
      const slug = await uploadBytes(t, 'again.blend', Buffer.from('BLENDER-v304'));
      const first = await t.call('POST', '/jobs', { slug });
      const second = await t.call('POST', '/jobs', { slug });
      expect(second.status).toBe(409);
      expect(second.json.error.jobId).toBe(first.json.id);
    });
  });

  describe('GET /jobs', () => {
    it.each([
      ['page=0'],
      ['page=-1'],
      ['page=abc'],
      ['pageSize=0'],
      ['pageSize=101'],
      ['pageSize=1.5'],
      ['status=running'],
    ])('rejects %s', async (q) => {
      const res = await t.call('GET', `/jobs?${q}`);
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('invalid_query');
    });
    it('pages newest first and filters by status', async () => {
      const fresh = await startTestNode({ blender: null });
      try {
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) ids.push((await createdJob(fresh, `s${i}.blend`)).id);
        await fresh.call('POST', `/jobs/${ids[0]}/cancel`);
        const page1 = await fresh.call('GET', '/jobs?page=1&pageSize=2');
        expect(page1.status).toBe(200);
        expect(page1.json.pagination).toEqual({ page: 1, pageSize: 2, total: 5, totalPages: 3 });
        expect(page1.json.jobs.map((j: any) => j.id)).toEqual([ids[4], ids[3]]);
        const page3 = await fresh.call('GET', '/jobs?page=3&pageSize=2');
        expect(page3.json.jobs.map((j: any) => j.id)).toEqual([ids[0]]);
        const defaults = await fresh.call('GET', '/jobs');
        expect(defaults.json.pagination).toMatchObject({ page: 1, pageSize: 20, total: 5, totalPages: 1 });
        const canceled = await fresh.call('GET', '/jobs?status=canceled');
        expect(canceled.json.jobs.map((j: any) => j.id)).toEqual([ids[0]]);
        expect(canceled.json.pagination.total).toBe(1);
        for (const s of JOB_STATUSES) expect((await fresh.call('GET', `/jobs?status=${s}`)).status).toBe(200);
      } finally {
        await fresh.stop();
      }
    });
  });

  describe('GET /jobs/{id}', () => {
    it('a malformed id is 400, an unknown one 404', async () => {
      expect((await t.call('GET', '/jobs/not-a-uuid')).status).toBe(400);
      const missing = await t.call('GET', '/jobs/00000000-0000-4000-8000-000000000000');
      expect(missing.status).toBe(404);
      expect(missing.json.error.code).toBe('not_found');
    });
    it('wraps the job in data', async () => {
      const job = await createdJob(t);
      const res = await t.call('GET', `/jobs/${job.id}`);
      expect(res.status).toBe(200);
      expect(res.json.data.id).toBe(job.id);
      expect(res.json.data.timeline.map((e: any) => e.status)).toEqual(['created']);
    });
  });

  describe('validate', () => {
    it('created -> validating; again is 400; without Blender the job fails with a clear reason', async () => {
      const job = await createdJob(t);
      const res = await t.call('POST', `/jobs/${job.id}/validate`);
      expect(res.status).toBe(200);
      expect(res.json.status).toBe('validating');
      const again = await t.call('POST', `/jobs/${job.id}/validate`, {});
      expect(again.status).toBe(400);
      expect(again.json.error.code).toBe('invalid_state');
      let data: any;
      for (let i = 0; i < 50; i++) {
        data = (await t.call('GET', `/jobs/${job.id}`)).json.data;
        if (data.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(data.status).toBe('failed');
      expect(data.failedReason).toMatchObject({ name: 'BlenderNotFound', type: 'blender' });
    });
    it('accepts an empty object and rejects unknown fields', async () => {
      const a = await createdJob(t);
      expect((await t.call('POST', `/jobs/${a.id}/validate`, {})).status).toBe(200);
      const b = await createdJob(t);
      expect((await t.call('POST', `/jobs/${b.id}/validate`, { bogus: 1 })).status).toBe(400);
    });
    it('a validated job cannot be validated again', async () => {
      const job = await validatedJob(t);
      expect((await t.call('POST', `/jobs/${job.id}/validate`)).status).toBe(400);
    });
  });

  describe('render', () => {
    it.each([[undefined], [{}], [{ requestedRenderConfig: {} }], [{ requestedRenderConfig: [] }], [{ requestedRenderConfig: null }]])(
      'missing or empty requestedRenderConfig is 400 (%j)',
      async (body) => {
        const job = await validatedJob(t);
        const res = await t.call('POST', `/jobs/${job.id}/render`, body);
        expect(res.status).toBe(400);
        expect(res.json.error.message).toContain('requestedRenderConfig');
      },
    );
    it('colorManagementPreset is required and checked', async () => {
      const job = await validatedJob(t);
      expect((await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { sampleCount: 4 } })).status).toBe(400);
      expect((await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'filmic' } })).status).toBe(400);
    });
    it('render before validated is 400', async () => {
      const job = await createdJob(t);
      const res = await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default' } });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('invalid_state');
    });
    it('bad overrides are 400 with the reason', async () => {
      const job = await validatedJob(t);
      const cam = await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', activeCamera: 'Nope' } });
      expect(cam.status).toBe(400);
      expect(cam.json.error.message).toContain('Camera, CloseUp');
      const frames = await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', frameRanges: ['3-1'] } });
      expect(frames.status).toBe(400);
      expect(frames.json.error.code).toBe('invalid_frame_ranges');
    });
    it('validated -> booting with finalConfig; a replay is 200 with X-Idempotent-Replay and starts nothing', async () => {
      const job = await validatedJob(t);
      const body = { requestedRenderConfig: { colorManagementPreset: 'default', frameRanges: ['1-2'], sampleCount: 2 } };
      const first = await t.call('POST', `/jobs/${job.id}/render`, body);
      expect(first.status).toBe(200);
      expect(first.headers.get('x-idempotent-replay')).toBeNull();
      expect(first.json.status).toBe('booting');
      expect(first.json.requestedConfig).toEqual(body.requestedRenderConfig);
      expect(first.json.finalConfig).toMatchObject({ sampleCount: 2, frameRanges: ['1-2'], activeCamera: 'Camera', resolution: [64, 36] });
      const before = t.node.ctx.jobs.events(job.id).length;
      const second = await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'aces' } });
      expect(second.status).toBe(200);
      expect(second.headers.get('x-idempotent-replay')).toBe('true');
      expect(second.json.id).toBe(job.id);
      expect(second.json.requestedConfig).toEqual(body.requestedRenderConfig);
      const progress = await t.call('GET', `/jobs/${job.id}/progress`);
      expect(progress.json.totalFrames).toBe(2);
      expect(t.node.ctx.jobs.events(job.id).length).toBeGreaterThanOrEqual(before);
    });
  });

  describe('cancel', () => {
    it('an unfinished job is canceled; a finished one answers 400', async () => {
      const job = await createdJob(t);
      const res = await t.call('POST', `/jobs/${job.id}/cancel`);
      expect(res.status).toBe(200);
      expect(res.json.status).toBe('canceled');
      const again = await t.call('POST', `/jobs/${job.id}/cancel`);
      expect(again.status).toBe(400);
      expect(again.json.error.message).toContain('canceled');
      const done = await validatedJob(t);
      putJobInStatus(t.node.ctx, done.id, 'completed');
      expect((await t.call('POST', `/jobs/${done.id}/cancel`)).status).toBe(400);
      const failed = await createdJob(t);
      putJobInStatus(t.node.ctx, failed.id, 'failed', { failedReason: { name: 'X', type: 'scene' } });
      expect((await t.call('POST', `/jobs/${failed.id}/cancel`)).status).toBe(400);
    });
  });

  describe('progress and downloads', () => {
    it('/jobs/progress lists active jobs; /jobs/{id}/progress any job', async () => {
      const job = await validatedJob(t);
      putJobInStatus(t.node.ctx, job.id, 'rendering', { totalFrames: 3, completedFrames: 1 });
      const all = await t.call('GET', '/jobs/progress');
      expect(all.status).toBe(200);
      expect(all.json).toContainEqual({ jobId: job.id, completedFrames: 1, totalFrames: 3 });
      const created = await createdJob(t);
      expect(all.json.some((p: any) => p.jobId === created.id)).toBe(false);
      const one = await t.call('GET', `/jobs/${created.id}/progress`);
      expect(one.json).toEqual({ jobId: created.id, completedFrames: 0, totalFrames: 0 });
      t.node.ctx.jobs.transition(job.id, ['rendering'], 'canceled');
    });
    it('downloads are empty arrays before output is ready, with every key present', async () => {
      const job = await createdJob(t);
      const res = await t.call('GET', `/jobs/${job.id}/downloads`);
      expect(res.status).toBe(200);
      expect(downloadsSchema.safeParse(res.json).success).toBe(true);
      expect(res.json).toMatchObject({ frames: [], compositeNodes: [], frameOutputs: [], compositeNodeOutputs: [] });
      expect(res.json.transforms).toEqual({ framesZip: null, compositeNodesZip: null, video: null, framesZipOutputs: null, compositeNodesZipOutputs: null });
    });
  });

  describe('rate limiting', () => {
    it('429 with Retry-After once a key exceeds its window', async () => {
      const limited = await startTestNode({ blender: null, rateLimit: { limit: 3, windowMs: 60_000 } });
      try {
        for (let i = 0; i < 3; i++) expect((await limited.call('GET', '/jobs')).status).toBe(200);
        const res = await limited.call('GET', '/jobs');
        expect(res.status).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(res.json.error.code).toBe('rate_limited');
      } finally {
        await limited.stop();
      }
    });
  });

  describe('secrets stay out of logs', () => {
    it('neither keys nor URL signatures are logged', async () => {
      const tgt = (await t.call('POST', '/uploads', { fileName: 'log.blend', fileType: 'blend' })).json;
      await fetch(tgt.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: 'BLENDER-v304' });
      await t.call('GET', '/jobs', undefined, { authorization: 'Bearer RJ-wrong-key-for-the-log' });
      const logs = t.logs();
      expect(logs).toContain('/storage/uploads/');
      expect(logs).not.toContain(t.key);
      expect(logs).not.toContain('RJ-wrong-key-for-the-log');
      expect(logs).not.toContain(new URL(tgt.uploadUrl).searchParams.get('sig')!);
    });
  });
});
