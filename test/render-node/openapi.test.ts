import { createHash } from 'node:crypto';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH, OpenApiChecker } from '../helpers/openapi';
import { startTestNode, uploadBytes, type TestNode } from '../helpers/node';
import { putJobInStatus } from '../helpers/job-status';
import { blendBytes } from '../helpers/scene-files';
import { sampleAnalysis } from '../fixtures/analysis';
import { diskFullReason } from '../../src/render-node/disk/disk-space';

/**
 * The node's real answers checked against docs/openapi.yaml: every operation of the document is
 * called, every answer must be a documented status with a body matching its schema.
 */
describe('docs/openapi.yaml describes the node as it answers', () => {
  const checker = new OpenApiChecker();
  let t: TestNode;
  const problems: string[] = [];

  /** Send a request and check the answer against the document. */
  async function send(method: string, url: string, init: { body?: string | Buffer; headers?: Record<string, string>; key?: string | null } = {}): Promise<{ status: number; body: any; headers: Headers }> {
    const absolute = url.startsWith('http') ? url : `${t.api}${url}`;
    const headers: Record<string, string> = { ...(init.key === null ? {} : { authorization: `Bearer ${init.key ?? t.key}` }), ...init.headers };
    if (typeof init.body === 'string' && !headers['content-type']) headers['content-type'] = 'application/json';
    const res = await fetch(absolute, { method, headers, body: init.body });
    const text = await res.text();
    const contentType = res.headers.get('content-type');
    const body = contentType?.startsWith('application/json') && text ? JSON.parse(text) : text;
    const u = new URL(absolute);
    problems.push(...checker.problems({ method, path: u.pathname, status: res.status, contentType, body }));
    return { status: res.status, body, headers: res.headers };
  }
  const json = (value: unknown) => JSON.stringify(value);
  /** A signed URL with the first character of its signature changed. */
  const tampered = (url: string) => url.replace(/sig=(.)/, (_all, first: string) => `sig=${first === '0' ? '1' : '0'}`);

  beforeAll(async () => {
    t = await startTestNode({ blender: null });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const api = await SwaggerParser.validate(OPENAPI_PATH);
    expect('openapi' in api && api.openapi).toBe('3.1.0');
  });

  it('finds answers that do not match it', () => {
    const seen = { method: 'GET', path: '/api/external/v1/jobs/progress', contentType: 'application/json' };
    expect(checker.problems({ ...seen, status: 200, body: [{ jobId: crypto.randomUUID(), completedFrames: 1, totalFrames: 2 }] })).toEqual([]);
    expect(checker.problems({ ...seen, status: 200, body: [{ jobId: crypto.randomUUID(), completedFrames: 1 }] })).not.toEqual([]);
    expect(checker.problems({ ...seen, status: 418, body: {} })).not.toEqual([]);
    expect(checker.problems({ ...seen, status: 401, body: { error: 'Unauthorized', message: 'x', statusCode: 401 } })).not.toEqual([]);
    expect(checker.problems({ ...seen, method: 'DELETE', status: 200, body: null })).not.toEqual([]);
  });

  it('matches every answer of a full run, errors included', async () => {
    // uploads and the presigned PUT
    const target = (await send('POST', '/uploads', { body: json({ fileName: 'shot.blend', fileType: 'blend' }) })).body;
    expect((await send('PUT', target.uploadUrl, { key: null, body: 'BLENDER-v304 scene', headers: { 'content-type': 'application/octet-stream' } })).status).toBe(200);
    expect((await send('PUT', target.uploadUrl, { key: null, body: 'BLENDER-v304 again', headers: { 'content-type': 'application/octet-stream' } })).status).toBe(409);
    expect((await send('PUT', tampered(target.uploadUrl), { key: null, body: 'x', headers: { 'content-type': 'application/octet-stream' } })).status).toBe(403);
    const zipTarget = (await send('POST', '/uploads', { body: json({ fileName: 'b.zip', fileType: 'zip' }) })).body;
    expect((await send('PUT', zipTarget.uploadUrl, { key: null, body: 'PK', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await send('POST', '/uploads', { body: json({ fileName: 'a.zip', fileType: 'blend' }) })).status).toBe(400);
    expect((await send('POST', '/uploads', { body: 'fileName=a', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await send('POST', '/uploads', { body: json({ fileName: 'a.blend', fileType: 'blend', pad: 'x'.repeat(1_100_000) }) })).status).toBe(413);
    expect((await send('POST', '/uploads', { key: 'RJ-wrong', body: json({ fileName: 'a.blend', fileType: 'blend' }) })).status).toBe(401);

    // jobs
    const job = (await send('POST', '/jobs', { body: json({ slug: target.slug }) })).body;
    expect(job.status).toBe('created');
    expect((await send('POST', '/jobs', { body: json({ slug: target.slug }) })).status).toBe(409);
    expect((await send('POST', '/jobs', { body: json({ slug: 'u-unknown' }) })).status).toBe(400);
    expect((await send('GET', '/jobs?page=1&pageSize=5')).status).toBe(200);
    expect((await send('GET', '/jobs?status=created')).status).toBe(200);
    expect((await send('GET', '/jobs?pageSize=0')).status).toBe(400);
    expect((await send('GET', '/jobs/progress')).status).toBe(200);
    expect((await send('GET', '/node/workers')).body).toEqual({ mode: 'embedded', renders: 1, threads: null, tags: [] });
    expect((await send('POST', '/node/workers/block', { body: json({ worker: 'box1' }) })).body.error.code).toBe('no_render_workers');
    expect((await send('POST', '/node/workers/unblock', { body: json({ worker: 'box1', jobId: job.id }) })).status).toBe(409);
    expect((await send('POST', '/node/workers/block', { body: json({ worker: '' }) })).status).toBe(400);
    expect((await send('GET', `/jobs/${job.id}`)).status).toBe(200);
    expect((await send('GET', '/jobs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await send('GET', '/jobs/not-a-job')).status).toBe(400);
    expect((await send('GET', `/jobs/${'a'.repeat(5000)}`)).status).toBe(414);
    expect((await send('GET', `/jobs/${job.id}/progress`)).status).toBe(200);
    expect((await send('GET', `/jobs/${job.id}/downloads`)).status).toBe(200);

    // validate: this node has no Blender, so the job fails with a reason
    expect((await send('POST', `/jobs/${job.id}/validate`, { body: json({}) })).status).toBe(200);
    expect((await send('POST', `/jobs/${job.id}/validate`)).status).toBe(400);
    for (let i = 0; i < 100 && t.node.ctx.jobs.get(job.id)?.status !== 'failed'; i++) await new Promise((r) => setTimeout(r, 20));
    const failed = (await send('GET', `/jobs/${job.id}`)).body.data;
    expect(failed.failedReason.name).toBe('BlenderNotFound');
    const log = (await send('GET', `/node/jobs/${job.id}/log?since=0`)).body;
    expect(log).toMatchObject({ jobId: job.id, offset: 0, cutBytes: 0 });
    expect(log.text).toContain(failed.failedReason.message);
    expect((await send('GET', `/node/jobs/${job.id}/log?since=soon`)).status).toBe(400);
    expect((await send('GET', '/node/jobs/00000000-0000-4000-8000-000000000000/log')).status).toBe(404);
    expect((await send('POST', `/jobs/${job.id}/cancel`)).status).toBe(400);

    // cancel
    const third = (await send('POST', '/uploads', { body: json({ fileName: 'three.blend', fileType: 'blend' }) })).body;
    await send('PUT', third.uploadUrl, { key: null, body: 'BLENDER-v304', headers: { 'content-type': 'application/octet-stream' } });
    const toCancel = (await send('POST', '/jobs', { body: json({ slug: third.slug }) })).body;
    expect((await send('POST', `/jobs/${toCancel.id}/cancel`)).status).toBe(200);

    // render on a job validated with a fixture analysis
    const second = (await send('POST', '/uploads', { body: json({ fileName: 'two.blend', fileType: 'blend' }) })).body;
    await send('PUT', second.uploadUrl, { key: null, body: 'BLENDER-v304', headers: { 'content-type': 'application/octet-stream' } });
    const validated = (await send('POST', '/jobs', { body: json({ slug: second.slug }) })).body;
    putJobInStatus(t.node.ctx, validated.id, 'validated', { analysis: sampleAnalysis(), analysisId: crypto.randomUUID(), totalFrames: 3 });
    // job settings (a node extension): priority and required tags until the job ends
    expect((await send('POST', `/node/jobs/${validated.id}/settings`, { body: json({ priority: 70, requires: ['gpu'] }) })).body).toMatchObject({ priority: 70, requires: ['gpu'], waiting: null });
    expect((await send('POST', `/node/jobs/${validated.id}/settings`, { body: json({}) })).status).toBe(400);
    expect((await send('POST', `/node/jobs/${toCancel.id}/settings`, { body: json({ priority: 1 }) })).body.error.code).toBe('job_ended');
    expect((await send('POST', '/node/jobs/00000000-0000-4000-8000-000000000000/settings', { body: json({ priority: 1 }) })).status).toBe(404);
    expect((await send('POST', `/jobs/${validated.id}/render`, { body: json({ requestedRenderConfig: {} }) })).status).toBe(400);
    const started = await send('POST', `/jobs/${validated.id}/render`, { body: json({ requestedRenderConfig: { colorManagementPreset: 'default', frameRanges: ['1-2'], priority: 60, requires: [] } }) });
    expect(started.body).toMatchObject({ status: 'booting', priority: 60, requires: [] });
    const replay = await send('POST', `/jobs/${validated.id}/render`, { body: json({ requestedRenderConfig: { colorManagementPreset: 'default' } }) });
    expect(replay.headers.get('x-idempotent-replay')).toBe('true');

    // a finished job with a frame: downloads, the signed GET with and without a range
    const frames = t.node.ctx.storage.framesDir(validated.id);
    await mkdir(frames, { recursive: true });
    await writeFile(join(frames, 'sample_0001.png'), Buffer.alloc(2048, 7));
    t.node.ctx.jobs.recordFrame(validated.id, 1, join(frames, 'sample_0001.png'), 1.5);
    putJobInStatus(t.node.ctx, validated.id, 'completed', { completedAt: new Date().toISOString() });
    const downloads = (await send('GET', `/jobs/${validated.id}/downloads`)).body;
    expect(downloads.frames).toHaveLength(1);
    const listed = (await send('GET', `/node/jobs/${validated.id}/frames`)).body;
    expect(listed).toMatchObject({ jobId: validated.id, frames: [{ frame: 1, fileName: 'sample_0001.png', previewUrl: null, size: 2048 }] });
    expect(Date.parse(listed.frames[0].modifiedAt)).toBe(Math.floor((await stat(join(frames, 'sample_0001.png'))).mtimeMs));
    expect((await send('GET', '/node/jobs/00000000-0000-4000-8000-000000000000/frames')).status).toBe(404);
    expect((await send('GET', downloads.frames[0], { key: null })).status).toBe(200);
    expect((await send('GET', downloads.frames[0], { key: null, headers: { range: 'bytes=100-' } })).status).toBe(206);
    expect((await send('GET', downloads.frames[0], { key: null, headers: { range: 'bytes=99999-' } })).status).toBe(416);
    expect((await send('GET', tampered(downloads.frames[0]), { key: null })).status).toBe(403);

    // requeue (a node extension): refusals, then frame 2, never rendered, back in the queue
    expect((await send('POST', `/node/jobs/${validated.id}/requeue`, { body: json({ frames: ['9'] }) })).body.error.code).toBe('frames_not_in_job');
    expect((await send('POST', `/node/jobs/${validated.id}/requeue`, { body: json({ frames: [] }) })).status).toBe(400);
    expect((await send('POST', `/node/jobs/${toCancel.id}/requeue`, { body: json({ failed: true }) })).body.error.code).toBe('never_rendered');
    expect((await send('POST', '/node/jobs/00000000-0000-4000-8000-000000000000/requeue', { body: json({ failed: true }) })).status).toBe(404);
    const requeued = (await send('POST', `/node/jobs/${validated.id}/requeue`, { body: json({ failed: true }) })).body;
    expect(requeued.status).toBe('booting');
    expect(requeued.timeline.at(-1)).toMatchObject({ status: 'booting', detail: 'requeued frame 2' });

    // chunked uploads (a node extension): the file's chunks, a batch, a refusal, the rebuilt upload
    expect((await send('GET', '/node/chunked-uploads')).body).toMatchObject({ encodings: ['raw', 'zstd'] });
    const chunk = Buffer.from('BLENDER-v304 in chunks');
    const hash = createHash('sha256').update(chunk).digest('hex');
    const manifest = { size: chunk.length, sha256: hash, chunks: [{ hash, size: chunk.length }] };
    const chunked = (await send('POST', '/node/chunked-uploads', { body: json({ fileName: 'c.blend', fileType: 'blend', manifest }) })).body;
    expect(chunked.missing).toEqual([hash]);
    expect((await send('POST', '/node/chunked-uploads', { body: json({ fileName: 'c.zip', fileType: 'blend', manifest }) })).status).toBe(400);
    expect((await send('POST', `/node/chunked-uploads/${chunked.id}/complete`, { body: json({}) })).body).toEqual({ missing: [hash] });
    const frame = Buffer.alloc(37);
    frame.write(hash, 0, 32, 'hex');
    frame.writeUInt32BE(chunk.length, 33);
    const batch = { key: null, headers: { 'content-type': 'application/octet-stream' } };
    expect((await send('PUT', chunked.chunksUrl, { ...batch, body: Buffer.concat([frame, Buffer.from('something else entirely')]) })).status).toBe(400);
    expect((await send('PUT', tampered(chunked.chunksUrl), { ...batch, body: Buffer.concat([frame, chunk]) })).status).toBe(403);
    expect((await send('PUT', chunked.chunksUrl, { ...batch, body: Buffer.concat([frame, chunk]) })).body).toEqual({ stored: 1 });
    const rebuilt = (await send('POST', `/node/chunked-uploads/${chunked.id}/complete`, { body: json({}) })).body;
    expect(rebuilt).toMatchObject({ slug: expect.any(String), size: chunk.length, sha256: hash });
    expect((await send('PUT', chunked.chunksUrl, { ...batch, body: Buffer.concat([frame, chunk]) })).status).toBe(409);
    expect((await send('POST', '/node/chunked-uploads/c-unknown/complete', { body: json({}) })).status).toBe(404);
    expect((await send('POST', '/jobs', { body: json({ slug: rebuilt.slug }) })).body.status).toBe('created');
    const other = Buffer.from('BLENDER-v304 sent whole');
    const otherHash = createHash('sha256').update(other).digest('hex');
    const whole = (await send('POST', '/node/chunked-uploads', { body: json({ fileName: 'w.blend', fileType: 'blend', manifest: { size: other.length, sha256: otherHash, chunks: [{ hash: otherHash, size: other.length }] } }) })).body;
    expect((await send('PUT', whole.wholeUrl, { ...batch, body: Buffer.from('BLENDER-v304 sent whole, but longer') })).status).toBe(411);
    expect((await send('PUT', whole.wholeUrl, { ...batch, body: other })).body).toMatchObject({ size: other.length, sha256: otherHash });
    expect((await send('PUT', whole.wholeUrl, { ...batch, body: other })).status).toBe(409);

    expect(problems).toEqual([]);
    const coveredOperations = new Set([...checker.covered].map((c) => c.split(' ').slice(0, 2).join(' ')));
    expect(checker.operations().filter((op) => !coveredOperations.has(op))).toEqual([]);
  });

  it('matches the answers of a node over its limits or short of disk space', async () => {
    const limited = await startTestNode({ blender: null, limits: { maxFramesPerJob: 2, maxPixelsPerFrame: 65536 * 65536 * 50 } });
    const check = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${limited.api}${path}`, { method, headers: { authorization: `Bearer ${limited.key}`, 'content-type': 'application/json' }, body: json(body) });
      const answer: any = await res.json();
      problems.push(...checker.problems({ method, path: `/api/external/v1${path}`, status: res.status, contentType: res.headers.get('content-type'), body: answer }));
      return { status: res.status, code: answer?.error?.code };
    };
    try {
      const slug = await uploadBytes(limited, 'exr.blend', blendBytes(4096));
      const job = (await limited.call('POST', '/jobs', { slug })).json;
      const exr = { colorMode: 'RGBA', colorDepth: '32', exrCodec: 'NONE', tiffCodec: null, compression: null, quality: null };
      putJobInStatus(limited.node.ctx, job.id, 'validated', { analysis: sampleAnalysis({ outputFormat: 'OPEN_EXR', outputSettings: exr }), analysisId: crypto.randomUUID(), totalFrames: 3 });
      const render = (config: Record<string, unknown>) => check('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', ...config } });
      expect(await render({ frameRanges: ['1-3'] })).toEqual({ status: 400, code: 'limit_frames' });
      expect(await render({ frameRanges: ['1'], resolution: [65536, 65536], resolutionPercentage: 1000 })).toEqual({ status: 400, code: 'limit_pixels' });
      // 458,752 x 458,752 pixels of uncompressed 32-bit RGBA (within the pixel limit): about 3 PB a frame, more than any disk holds
      expect(await render({ frameRanges: ['1'], resolution: [65536, 65536], resolutionPercentage: 700 })).toEqual({ status: 507, code: 'insufficient_storage' });
      expect((await limited.call('GET', `/jobs/${job.id}`)).json.data.status).toBe('validated');
      putJobInStatus(limited.node.ctx, job.id, 'failed', { failedReason: diskFullReason('the frames zip could not be written') });
      const failed = await fetch(`${limited.api}/jobs/${job.id}`, { headers: { authorization: `Bearer ${limited.key}` } });
      problems.push(...checker.problems({ method: 'GET', path: `/api/external/v1/jobs/${job.id}`, status: failed.status, contentType: failed.headers.get('content-type'), body: await failed.json() }));
      expect(problems).toEqual([]);
    } finally {
      await limited.stop();
    }
  });

  it('matches the 429 of the rate limit', async () => {
    const limited = await startTestNode({ blender: null, rateLimit: { limit: 1, windowMs: 60_000 } });
    try {
      await limited.call('GET', '/jobs');
      const res = await fetch(`${limited.api}/jobs`, { headers: { authorization: `Bearer ${limited.key}` } });
      const body = await res.json();
      expect(checker.problems({ method: 'GET', path: '/api/external/v1/jobs', status: res.status, contentType: res.headers.get('content-type'), body })).toEqual([]);
      expect(res.status).toBe(429);
    } finally {
      await limited.stop();
    }
  });
});
