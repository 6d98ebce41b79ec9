import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { startTestNode, uploadBytes, waitForJob } from '../../helpers/node';
import { makeOutsideScene } from '../../helpers/pack-corpus';
import { requireStrace, tracedBlender } from '../../helpers/strace';
import { crc32 } from '../../helpers/zip-bytes';
import { analyzeScene } from '../../../src/render-node/blender/analyze';
import { probeBlender, type BlenderInfo } from '../../../src/render-node/blender/probe';
import { startRender } from '../../../src/render-node/blender/render';

const blender = requireBlender();
const strace = requireStrace();

/** A solid red 8x8 PNG: a texture whose presence in a frame is easy to see. */
function redPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(8, 0);
  header.writeUInt32BE(8, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.concat(Array.from({ length: 8 }, () => Buffer.from([0, ...Array.from({ length: 8 }, () => [255, 0, 0]).flat()])));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/** A TrueType font of this system (Debian's blender depends on fonts-dejavu). */
async function anyFont(): Promise<string> {
  const preferred = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
  if (existsSync(preferred)) return preferred;
  const found = (await readdir('/usr/share/fonts', { recursive: true }).catch(() => [] as string[])).find((name) => String(name).endsWith('.ttf'));
  if (!found) throw new Error('This test needs a .ttf font under /usr/share/fonts (Debian: apt install fonts-dejavu-core).');
  return join('/usr/share/fonts', String(found));
}

describe.skipIf(!blender)('Blender on the node reads nothing outside the job folder', () => {
  const blenderPath = blender!;
  let base: string;
  let info: BlenderInfo;
  let secret: string;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'rd-confine-'));
    await mkdir(join(base, 'elsewhere'), { recursive: true });
    secret = join(base, 'elsewhere', 'secret.png');
    await writeFile(secret, redPng());
    info = await probeBlender(blenderPath, { timeoutMs: 60_000 });
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  /** Render frame 1 of a scene as BMP (no metadata, so equal pictures are equal bytes). */
  async function renderFrame(scenePath: string, sceneRoot: string, out: string, path = blenderPath): Promise<{ bytes: Buffer; warnings: string[] }> {
    const result = await startRender({
      blenderPath: path,
      scenePath,
      sceneRoot,
      plan: { frames: [1], outputDir: out, samples: 1, outputFormat: 'BMP', resolution: [64, 36], resolutionPercentage: 100 },
    }).done;
    expect(result.exitCode, result.stderrTail).toBe(0);
    return { bytes: await readFile(result.framesWritten[0]!.path), warnings: result.warnings };
  }

  it.each([
    ['an absolute path', () => secret],
    ['a //../ path leaving the job folder', () => '//../elsewhere/secret.png'],
  ])('the analysis reports %s to an existing file as missing, by its stored path, without looking at it', async (_label, stored) => {
    const job = join(base, `job-analysis-${Math.random().toString(36).slice(2)}`);
    const scenePath = await makeSampleScene(job, { storedTexture: stored(), name: 'scene.blend' });
    const traced = strace ? await tracedBlender(strace, blenderPath, base) : null;
    const analysis = await analyzeScene({ blenderPath: traced?.path ?? blenderPath, scenePath, sceneRoot: job, nodeBlenderVersion: info.version, timeoutMs: 120_000 });
    expect(analysis.dependencies).toEqual([{ kind: 'image', name: 'secret.png', path: stored(), resolvedPath: null, packed: false, exists: false }]);
    const warning = analysis.warnings.find((w) => w.code === 'missing-dependency');
    expect(warning).toMatchObject({ path: stored() });
    expect(warning!.message).toContain('outside the uploaded files');
    expect(warning!.message).not.toContain(job);
    if (traced) expect(await traced.touched()).not.toContain(secret);
  });

  it('a render never uses a texture outside the job folder, and warns by its stored path', async () => {
    const job = join(base, 'job-render');
    const outside = await makeSampleScene(job, { storedTexture: secret, name: 'outside.blend' });
    const missing = await makeSampleScene(job, { storedTexture: '//textures/not-uploaded.png', name: 'missing.blend' });
    await mkdir(join(job, 'textures'), { recursive: true });
    await writeFile(join(job, 'textures', 'red.png'), redPng());
    const uploaded = await makeSampleScene(job, { storedTexture: '//textures/red.png', name: 'uploaded.blend' });

    const traced = strace ? await tracedBlender(strace, blenderPath, base) : null;
    const cut = await renderFrame(outside, job, join(job, 'out-outside'), traced?.path);
    const asMissing = await renderFrame(missing, job, join(job, 'out-missing'));
    const withTexture = await renderFrame(uploaded, job, join(job, 'out-uploaded'));

    expect(withTexture.bytes.equals(asMissing.bytes)).toBe(false);
    expect(cut.bytes.equals(asMissing.bytes)).toBe(true);
    expect(cut.warnings).toContainEqual(`Not read: image "secret.png" uses ${secret}, outside the uploaded files.`);
    if (traced) expect(await traced.touched()).not.toContain(secret);
  });

  it('a library linked from outside the job folder is missing for the analysis and removed before the render', async () => {
    const library = await makeSampleScene(join(base, 'elsewhere'), { missingTexture: false, name: 'library.blend' });
    const job = join(base, 'job-library');
    const scenePath = await makeSampleScene(job, { missingTexture: false, linkFrom: library, name: 'linked.blend' });
    const analysis = await analyzeScene({ blenderPath, scenePath, sceneRoot: job, nodeBlenderVersion: info.version, timeoutMs: 120_000 });
    expect(analysis.dependencies.find((d) => d.kind === 'library')).toMatchObject({ path: '//../elsewhere/library.blend', resolvedPath: null, exists: false });
    const rendered = await renderFrame(scenePath, job, join(job, 'out'));
    expect(rendered.warnings).toContainEqual('Not read: library "library.blend" uses //../elsewhere/library.blend, outside the uploaded files.');
  });

  it.skipIf(!strace)('the node points libraries and fonts from outside at nothing, so Blender\'s loader never opens them', async () => {
    const traced = await tracedBlender(strace!, blenderPath, base);
    const scenePath = join(base, 'outside-src', 'scene.blend');
    const outside = await makeOutsideScene(blenderPath, scenePath, join(base, 'elsewhere-loader'), await anyFont());
    const bytes = await readFile(scenePath);
    const node = await startTestNode({ blender: { ...info, path: traced.path } });
    try {
      const slug = await uploadBytes(node, 'scene.blend', bytes);
      const job = (await node.call('POST', '/jobs', { slug })).json;
      await node.call('POST', `/jobs/${job.id}/validate`);
      const validated = await waitForJob(node, job.id, (j) => j.status !== 'validating' && j.status !== 'created');
      expect(validated.status, JSON.stringify(validated.failedReason)).toBe('validated');
      const dependencies = validated.analysis.dependencies.filter((d: { kind: string }) => d.kind === 'library' || d.kind === 'font');
      expect(dependencies).toEqual([
        expect.objectContaining({ kind: 'library', path: outside.library, resolvedPath: null, exists: false }),
        expect.objectContaining({ kind: 'font', path: outside.font, resolvedPath: null, exists: false }),
      ]);
      const warnings = validated.analysis.warnings.filter((w: { code: string }) => w.code === 'missing-dependency');
      expect(warnings.map((w: { path: string }) => w.path).sort()).toEqual([outside.font, outside.library].sort());
      for (const w of warnings) expect(w.message).toMatch(/outside the uploaded files/);
      expect(JSON.stringify(validated.analysis)).not.toContain('.renderdrop-not-uploaded');

      await node.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', frameRanges: ['1'] } });
      const done = await waitForJob(node, job.id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 170_000);
      expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');

      const log = await traced.touched();
      expect(log).not.toContain(outside.library);
      expect(log).not.toContain(outside.font);
      expect(log).toContain('.renderdrop-not-uploaded');
      const stored = join(node.dataDir, 'uploads', slug);
      expect(createHash('sha256').update(await readFile(stored)).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
    } finally {
      await node.stop();
    }
  });

  it('a scene without an active camera is warned about, naming the cameras it has', async () => {
    const job = join(base, 'job-camera');
    const scenePath = await makeSampleScene(job, { noActiveCamera: true, missingTexture: false, name: 'nocam.blend' });
    const analysis = await analyzeScene({ blenderPath, scenePath, sceneRoot: job, nodeBlenderVersion: info.version, timeoutMs: 120_000 });
    expect(analysis.activeCamera).toBeNull();
    const warning = analysis.warnings.find((w) => w.code === 'no-active-camera');
    expect(warning?.message).toContain('"Camera", "CloseUp"');
  });
});
