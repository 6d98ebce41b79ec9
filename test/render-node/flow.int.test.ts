import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingMessage } from 'node:http';
import { createHmac } from 'node:crypto';
import yazl from 'yazl';
import { downloadsSchema, jobSchema } from '../../src/shared/api';
import { startTestNode, uploadBytes, waitForJob, type TestNode } from '../helpers/node';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { probeBlender } from '../../src/render-node/blender/probe';

const blenderPath = requireBlender();

function pngSize(buf: Buffer): [number, number] {
  expect(buf.subarray(1, 4).toString()).toBe('PNG');
  return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
}

async function zipOf(files: Record<string, string | Buffer>, fromDisk: Record<string, string> = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(files)) zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name);
  for (const [name, path] of Object.entries(fromDisk)) zip.addFile(path, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function blenderProcessesUnder(dir: string): Promise<number> {
  return readdir('/proc').then(async (entries) => {
    let n = 0;
    for (const e of entries) {
      if (!/^\d+$/.test(e)) continue;
      const cmd = await readFile(`/proc/${e}/cmdline`, 'utf8').catch(() => '');
      if (cmd.includes('blender') && cmd.includes(dir)) n++;
    }
    return n;
  });
}

describe.skipIf(!blenderPath)('render node with real Blender', () => {
  let t: TestNode;
  let work: string;
  let sample: string;
  const hooks: { body: string; headers: IncomingMessage['headers'] }[] = [];
  let hookServer: ReturnType<typeof createServer>;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-flow-'));
    sample = await makeSampleScene(work, {});
    hookServer = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        hooks.push({ body, headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', () => r()));
    const port = (hookServer.address() as { port: number }).port;
    const blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    t = await startTestNode({ blender, webhook: { url: `http://127.0.0.1:${port}/hook`, secret: 'whsec-test', retryDelaysMs: [100] } });
  });
  afterAll(async () => {
    await t?.stop();
    hookServer?.close();
  });

  it('runs the whole flow: upload, validate, render, download', async () => {
    const started = Date.now();
    const slug = await uploadBytes(t, 'sample.blend', await readFile(sample));
    const job = (await t.call('POST', '/jobs', { slug })).json;
    expect((await t.call('POST', `/jobs/${job.id}/validate`)).json.status).toBe('validating');
    const validated = await waitForJob(t, job.id, (j) => j.status !== 'validating');
    expect(validated.status).toBe('validated');
    const a = validated.analysis;
    expect(a).toMatchObject({ engine: 'CYCLES', frameStart: 1, frameEnd: 3, frameStep: 1, resolution: [64, 36], resolutionPercentage: 100, samples: 4, activeCamera: 'Camera', outputFormat: 'PNG', totalFrames: 3 });
    expect(a.cameras).toEqual(expect.arrayContaining(['Camera', 'CloseUp']));
    expect(a.viewLayers.map((l: any) => l.name)).toEqual(expect.arrayContaining(['ViewLayer', 'Background']));
    const missing = a.dependencies.find((d: any) => d.path.includes('missing-albedo.png'));
    expect(missing).toMatchObject({ kind: 'image', exists: false });
    expect(a.warnings.some((w: any) => w.code === 'missing-dependency' && w.path?.includes('missing-albedo.png'))).toBe(true);
    expect((await t.call('GET', `/jobs/${job.id}/progress`)).json).toEqual({ jobId: job.id, completedFrames: 0, totalFrames: 3 });

    const render = await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', denoisingEnabled: true, computeDeviceType: 'CUDA' } });
    expect(render.status).toBe(200);
    expect(render.json.status).toBe('booting');
    const fields = render.json.finalConfig.adjustments.map((x: any) => x.field);
    expect(fields).toContain('computeDeviceType');
    expect(fields).toContain('denoisingEnabled');
    const seen = new Set<string>();
    const done = await waitForJob(t, job.id, (j) => {
      seen.add(j.status);
      return ['completed', 'failed', 'canceled'].includes(j.status);
    });
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(seen.has('rendering') || seen.has('finalizing') || seen.has('booting')).toBe(true);
    expect(done.timeline.map((e: any) => e.status)).toEqual(['created', 'validating', 'validated', 'booting', 'rendering', 'finalizing', 'completed']);
    expect(jobSchema.safeParse(done).success).toBe(true);
    expect(done.normalizedSeconds).toBeGreaterThan(0);
    expect(done.previewUrl).toMatch(/preview\.png\?expires=/);
    const preview = await fetch(done.previewUrl);
    expect(preview.status).toBe(200);
    pngSize(Buffer.from(await preview.arrayBuffer()));
    expect((await t.call('GET', `/jobs/${job.id}/progress`)).json).toEqual({ jobId: job.id, completedFrames: 3, totalFrames: 3 });

    const downloads = (await t.call('GET', `/jobs/${job.id}/downloads`)).json;
    expect(downloadsSchema.safeParse(downloads).success).toBe(true);
    expect(downloads.frameOutputs.map((o: any) => o.fileName)).toEqual(['sample_0001.png', 'sample_0002.png', 'sample_0003.png']);
    expect(downloads.frames).toHaveLength(3);
    expect(downloads.transforms.framesZip).toMatch(/sample-frames\.zip/);
    const frame = await fetch(downloads.frameOutputs[0].url);
    expect(frame.status).toBe(200);
    const bytes = Buffer.from(await frame.arrayBuffer());
    expect(Number(frame.headers.get('content-length'))).toBe(bytes.length);
    expect(pngSize(bytes)).toEqual([64, 36]);
    const etag = frame.headers.get('etag')!;
    const part = await fetch(downloads.frameOutputs[0].url, { headers: { range: 'bytes=10-', 'if-range': etag } });
    expect(part.status).toBe(206);
    expect(Buffer.compare(Buffer.from(await part.arrayBuffer()), bytes.subarray(10))).toBe(0);
    const zip = await fetch(downloads.transforms.framesZip);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(Date.now() - started).toBeGreaterThan(0);

    for (let i = 0; i < 50 && hooks.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(hooks).toHaveLength(1);
    const hook = hooks[0]!;
    const payload = JSON.parse(hook.body);
    expect(payload).toMatchObject({ event: 'onRenderComplete', status: 'completed', jobId: job.id, workspaceId: done.workspaceId });
    expect(payload.outputs.frames).toHaveLength(3);
    const ts = hook.headers['x-renderjuice-timestamp'] as string;
    expect(hook.headers['x-renderjuice-signature']).toBe(createHmac('sha256', 'whsec-test').update(`${ts}.${hook.body}`).digest('hex'));
  });

  it('renders a zip bundle with its textures and the requested overrides', async () => {
    const texDir = join(work, 'bundle', 'textures');
    await mkdir(texDir, { recursive: true });
    const png = await readFile(join(work, 'tex-src.png')).catch(async () => {
      const res = await fetch(`data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==`);
      return Buffer.from(await res.arrayBuffer());
    });
    await writeFile(join(texDir, 'albedo.png'), png);
    const scene = await makeSampleScene(join(work, 'bundle'), { texture: 'textures/albedo.png' });
    const zip = await zipOf({}, { 'shot.blend': scene, 'textures/albedo.png': join(texDir, 'albedo.png') });
    const slug = await uploadBytes(t, 'bundle.zip', zip);
    const job = (await t.call('POST', '/jobs', { slug })).json;
    await t.call('POST', `/jobs/${job.id}/validate`);
    const validated = await waitForJob(t, job.id, (j) => j.status !== 'validating');
    expect(validated.status, JSON.stringify(validated.failedReason)).toBe('validated');
    expect(validated.sceneFile.scenePath).toBe('shot.blend');
    const tex = validated.analysis.dependencies.find((d: any) => d.path.includes('albedo.png'));
    expect(tex).toMatchObject({ exists: true });
    expect(validated.analysis.warnings.filter((w: any) => w.code === 'missing-dependency')).toEqual([]);
    await t.call('POST', `/jobs/${job.id}/render`, {
      requestedRenderConfig: { colorManagementPreset: 'default', frameRanges: ['2'], resolutionPercentage: 50, activeCamera: 'CloseUp', sampleCount: 1 },
    });
    const done = await waitForJob(t, job.id, (j) => ['completed', 'failed', 'canceled'].includes(j.status));
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    const downloads = (await t.call('GET', `/jobs/${job.id}/downloads`)).json;
    expect(downloads.frameOutputs.map((o: any) => o.fileName)).toEqual(['sample_0002.png']);
    const bytes = Buffer.from(await (await fetch(downloads.frameOutputs[0].url)).arrayBuffer());
    expect(pngSize(bytes)).toEqual([32, 18]);
  });

  it('fails a corrupt scene and a non-Blender file with a reason', async () => {
    const full = await readFile(sample);
    const cases: [string, Buffer, string][] = [
      ['notes.blend', Buffer.from('these are my notes, not a scene\n'.repeat(20)), 'NotABlendFile'],
      ['broken.blend', full.subarray(0, Math.floor(full.length / 3)), 'SceneUnreadable'],
    ];
    for (const [name, bytes, reason] of cases) {
      const slug = await uploadBytes(t, name, bytes);
      const job = (await t.call('POST', '/jobs', { slug })).json;
      await t.call('POST', `/jobs/${job.id}/validate`);
      const failed = await waitForJob(t, job.id, (j) => j.status !== 'validating');
      expect(failed.status).toBe('failed');
      expect(failed.failedReason).toMatchObject({ name: reason, type: 'scene' });
    }
    const slug = await uploadBytes(t, 'two.zip', await zipOf({ 'a.blend': await readFile(sample), 'b.blend': await readFile(sample) }));
    const job = (await t.call('POST', '/jobs', { slug })).json;
    await t.call('POST', `/jobs/${job.id}/validate`);
    const failed = await waitForJob(t, job.id, (j) => j.status !== 'validating');
    expect(failed.failedReason).toMatchObject({ name: 'AmbiguousScene', type: 'zip' });
    expect(failed.failedReason.message).toContain('a.blend');
  });

  it('cancel stops Blender at once and keeps the frames already written', async () => {
    const slow = await makeSampleScene(work, { frames: 40 });
    const slug = await uploadBytes(t, 'slow.blend', await readFile(slow));
    const job = (await t.call('POST', '/jobs', { slug })).json;
    await t.call('POST', `/jobs/${job.id}/validate`);
    await waitForJob(t, job.id, (j) => j.status === 'validated');
    await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', sampleCount: 16 } });
    await waitForJob(t, job.id, (j) => j.progress.completedFrames >= 1);
    const res = await t.call('POST', `/jobs/${job.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('canceled');
    expect(await blenderProcessesUnder(join(t.dataDir, 'jobs', job.id))).toBe(0);
    const kept = (await readdir(join(t.dataDir, 'jobs', job.id, 'frames'))).filter((f) => f.endsWith('.png'));
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept.length).toBeLessThan(40);
    await new Promise((r) => setTimeout(r, 500));
    expect((await t.call('GET', `/jobs/${job.id}`)).json.data.status).toBe('canceled');
    expect((await t.call('POST', `/jobs/${job.id}/cancel`)).status).toBe(400);
    const downloads = (await t.call('GET', `/jobs/${job.id}/downloads`)).json;
    expect(downloads.frameOutputs.length).toBe(kept.length);
  });

  it('queues renders beyond the concurrency limit in booting', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const slug = await uploadBytes(t, `q${i}.blend`, await readFile(sample));
      const job = (await t.call('POST', '/jobs', { slug })).json;
      await t.call('POST', `/jobs/${job.id}/validate`);
      await waitForJob(t, job.id, (j) => j.status === 'validated');
      ids.push(job.id);
    }
    for (const id of ids) await t.call('POST', `/jobs/${id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', frameRanges: ['1'] } });
    const statuses = new Set<string>();
    await waitForJob(t, ids[0]!, (j) => {
      return j.status === 'rendering' || j.status === 'completed';
    });
    statuses.add((await t.call('GET', `/jobs/${ids[1]}`)).json.data.status);
    expect([...statuses]).toEqual(['booting']);
    for (const id of ids) expect((await waitForJob(t, id, (j) => j.status === 'completed')).status).toBe('completed');
    const s = await stat(join(t.dataDir, 'node.sqlite'));
    expect(s.size).toBeGreaterThan(0);
  });
});
