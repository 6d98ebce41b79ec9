import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { createKey, revokeKey } from '../../src/render-node/store/keys';
import { startTestNode, uploadBytes, type TestNode } from '../helpers/node';
import { putJobInStatus } from '../helpers/job-status';
import { sampleAnalysis } from '../fixtures/analysis';

/** Send raw bytes on a fresh connection and return everything the node answered before closing. */
function rawExchange(url: string, text: string, endAfter = true): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(text);
      if (endAfter) socket.end();
    });
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** The JSON body of a raw HTTP answer. */
function bodyOf(answer: string): any {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
}

const expectErrorShape = (body: any) => {
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error.code).toBe('string');
  expect(typeof body.error.message).toBe('string');
};

async function validatedJob(t: TestNode): Promise<string> {
  const slug = await uploadBytes(t, 'shot.blend', Buffer.from('BLENDER-v304 scene'));
  const job = (await t.call('POST', '/jobs', { slug })).json;
  putJobInStatus(t.node.ctx, job.id, 'validated', { analysis: sampleAnalysis(), analysisId: crypto.randomUUID(), totalFrames: 3 });
  return job.id;
}

describe('render node API edges', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode({ blender: null });
  });
  afterAll(async () => {
    await t.stop();
  });

  describe('one error shape, also for what Fastify and Node refuse', () => {
    it('a path with a broken percent-encoding is 400 invalid_url', async () => {
      const res = await t.call('GET', '/jobs/%ZZ');
      expect(res.status).toBe(400);
      expectErrorShape(res.json);
      expect(res.json.error.code).toBe('invalid_url');
    });
    it('a 5,000-character job id is refused in the one shape, without echoing it whole', async () => {
      const res = await t.call('GET', `/jobs/${'a'.repeat(5000)}`);
      expect(res.status).toBe(414);
      expectErrorShape(res.json);
      expect(res.json.error.message.length).toBeLessThan(300);
    });
    it('a negative Content-Length is 400 in the one shape', async () => {
      const answer = await rawExchange(t.url, `POST /api/external/v1/uploads HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: -1\r\n\r\n{}`);
      expect(answer).toMatch(/^HTTP\/1\.1 400/);
      expectErrorShape(bodyOf(answer));
    });
    it('a PUT body shorter than its Content-Length is answered in the one shape', async () => {
      const target = (await t.call('POST', '/uploads', { fileName: 'short.blend', fileType: 'blend' })).json;
      const u = new URL(target.uploadUrl);
      const answer = await rawExchange(t.url, `PUT ${u.pathname}${u.search} HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 100\r\n\r\nBLENDER`);
      expect(answer).toMatch(/^HTTP\/1\.1 4\d\d/);
      expectErrorShape(bodyOf(answer));
    });
    it('a text/plain body is 415 unsupported_media_type, as the README says', async () => {
      const res = await t.call('POST', '/uploads', JSON.stringify({ fileName: 'a.blend', fileType: 'blend' }), { 'content-type': 'text/plain' });
      expect(res.status).toBe(415);
      expect(res.json.error.code).toBe('unsupported_media_type');
    });
  });

  describe('render requests', () => {
    it('refuse an unknown top-level field as unknown config fields are', async () => {
      const id = await validatedJob(t);
      const res = await t.call('POST', `/jobs/${id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default' }, priority: 'high' });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('invalid_request');
      expect(res.json.error.message).toContain('priority');
    });
    it('refuse an invalid body with 400 even once the render has started, and replay only valid ones', async () => {
      const id = await validatedJob(t);
      expect((await t.call('POST', `/jobs/${id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default' } })).status).toBe(200);
      const invalid = await t.call('POST', `/jobs/${id}/render`, { requestedRenderConfig: { colorManagementPreset: 'filmic' } });
      expect(invalid.status).toBe(400);
      expect(invalid.headers.get('x-idempotent-replay')).toBeNull();
      expect((await t.call('POST', `/jobs/${id}/render`, {})).status).toBe(400);
      const replay = await t.call('POST', `/jobs/${id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default' } });
      expect(replay.status).toBe(200);
      expect(replay.headers.get('x-idempotent-replay')).toBe('true');
      t.node.ctx.jobs.transition(id, ['booting'], 'canceled');
    });
  });

  describe('uploads', () => {
    it('refuse a fileName over 255 bytes', async () => {
      const res = await t.call('POST', '/uploads', { fileName: `${'é'.repeat(126)}.blend`, fileType: 'blend' });
      expect(res.status).toBe(400);
      expect(res.json.error.message).toMatch(/fileName.*255 bytes/);
    });
    it('accept exactly one completed PUT: a second one is 409 upload_sealed and the first bytes stay', async () => {
      const target = (await t.call('POST', '/uploads', { fileName: 'once.blend', fileType: 'blend' })).json;
      const put = (body: string) => fetch(target.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body });
      expect((await put('BLENDER-v304 first')).status).toBe(200);
      const second = await put('BLENDER-v304 second, longer');
      expect(second.status).toBe(409);
      expect(((await second.json()) as any).error.code).toBe('upload_sealed');
      const job = (await t.call('POST', '/jobs', { slug: target.slug })).json;
      expect(job.sceneFile.size).toBe('BLENDER-v304 first'.length);
      const late = await put('BLENDER-v304 after the job');
      expect(late.status).toBe(409);
      expect(((await late.json()) as any).error.message).toContain(job.id);
    });
  });

  describe('keys', () => {
    it('share one workspace: a second key sees and may cancel the first key\'s job', async () => {
      const slug = await uploadBytes(t, 'mine.blend', Buffer.from('BLENDER-v304'));
      const job = (await t.call('POST', '/jobs', { slug })).json;
      const other = createKey(t.node.ctx.db, 'colleague').key;
      const seen = await t.call('GET', `/jobs/${job.id}`, undefined, { authorization: `Bearer ${other}` });
      expect(seen.json.data.workspaceId).toBe(job.workspaceId);
      const canceled = await t.call('POST', `/jobs/${job.id}/cancel`, undefined, { authorization: `Bearer ${other}` });
      expect(canceled.status).toBe(200);
      expect(canceled.json.status).toBe('canceled');
    });
    it('signed URLs stop working when the key they were issued to is revoked', async () => {
      const { key, info } = createKey(t.node.ctx.db, 'leaving');
      const auth = { authorization: `Bearer ${key}` };
      const target = (await t.call('POST', '/uploads', { fileName: 'late.blend', fileType: 'blend' }, auth)).json;
      revokeKey(t.node.ctx.db, info.id);
      const res = await fetch(target.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: 'BLENDER-v304' });
      expect(res.status).toBe(403);
      expect(((await res.json()) as any).error.code).toBe('key_revoked');
    });
  });

  describe('rate limits', () => {
    it('limit requests with wrong keys per address, and do not count them against valid keys', async () => {
      const limited = await startTestNode({ blender: null, rateLimit: { limit: 1000, windowMs: 60_000 } });
      try {
        let status = 0;
        for (let i = 0; i < 100 && status !== 429; i++) {
          status = (await limited.call('GET', '/jobs', undefined, { authorization: `Bearer RJ-guess-${i}` })).status;
        }
        expect(status).toBe(429);
        const res = await limited.call('GET', '/jobs', undefined, { authorization: 'Bearer RJ-one-more-guess' });
        expect(res.status).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect((await limited.call('GET', '/jobs')).status).toBe(200);
      } finally {
        await limited.stop();
      }
    });
  });
});
