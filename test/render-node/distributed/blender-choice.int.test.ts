import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/api-client';
import { SubmissionJournal } from '../../../src/core/journal/submission-journal';
import { recordForFile } from '../../../src/core/lifecycle/record-for-file';
import { SubmissionLifecycle } from '../../../src/core/lifecycle/submission-lifecycle';
import { eeveeFinding, runDoctor } from '../../../src/render-node/blender/doctor';
import { probeBlender, type BlenderInfo } from '../../../src/render-node/blender/probe';
import { runBlender } from '../../../src/render-node/blender/run-blender';
import { requireBlender } from '../../helpers/blender';
import { requireBlenderSeries } from '../../helpers/blenders';
import { startTestNode, uploadBytes, waitForJob, type TestNode } from '../../helpers/node';
import { renderInPlace } from '../../helpers/pack-corpus';
import { decodePng } from '../../helpers/png-pixels';
import { requireRedis, startRedis, type TestRedis } from '../../helpers/redis';
import { expectSameFrames } from '../../helpers/same-frames';
import { completedChunks, startWorkerProcess, stopWorker, type WorkerProcess } from '../../helpers/workers';

const blender34 = requireBlender();
const blender43 = requireBlenderSeries('4.3');
const blender52 = requireBlenderSeries('5.2');
const redisServer = requireRedis();

/** A cube, a camera and a sun at 32x32, frames 1 to FRAMES, in ENGINE (EEVEE by its name in this Blender), saved to OUT. */
const TINY_SCENE = `
import bpy, sys
out, engine, frames = sys.argv[sys.argv.index("--") + 1:][:3]
bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
bpy.ops.mesh.primitive_cube_add(location=(0, 0, 0))
cam = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
scene.collection.objects.link(cam)
cam.location = (4.0, -4.0, 3.0)
cam.rotation_euler = (1.1, 0.0, 0.785)
scene.camera = cam
sun = bpy.data.objects.new("Sun", bpy.data.lights.new("Sun", type="SUN"))
sun.data.energy = 3.0
scene.collection.objects.link(sun)
try:
    scene.render.engine = engine
except TypeError:
    scene.render.engine = "BLENDER_EEVEE_NEXT"
scene.cycles.samples = 2
scene.cycles.use_denoising = False
scene.render.resolution_x = 32
scene.render.resolution_y = 32
scene.render.resolution_percentage = 100
scene.frame_start = 1
scene.frame_end = int(frames)
scene.render.image_settings.file_format = "PNG"
scene.render.filepath = "//frames/tiny_"
bpy.ops.wm.save_as_mainfile(filepath=out)
`;

/** Save the tiny scene with the Blender at `blender`. */
async function tinyScene(blender: string, out: string, engine = 'CYCLES', frames = 1): Promise<string> {
  const result = await runBlender({ blenderPath: blender, args: ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python-expr', TINY_SCENE, '--', out, engine, String(frames)], timeoutMs: 120_000 });
  if (result.exitCode !== 0) throw new Error(`saving ${out} failed (${result.exitCode ?? result.signal}):\n${result.stderr.slice(-2000)}`);
  return out;
}

async function validated(t: TestNode, fileName: string, bytes: Buffer): Promise<any> {
  const slug = await uploadBytes(t, fileName, bytes);
  const job = (await t.call('POST', '/jobs', { slug })).json;
  await t.call('POST', `/jobs/${job.id}/validate`);
  return waitForJob(t, job.id, (j) => j.status !== 'validating');
}

async function render(t: TestNode, id: string): Promise<any> {
  const res = await t.call('POST', `/jobs/${id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default' } });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return waitForJob(t, id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 180_000);
}

const uploadCount = (t: TestNode) => (t.node.ctx.db.prepare('SELECT COUNT(*) AS n FROM uploads').get() as { n: number }).n;

describe.skipIf(!blender34 || !blender43 || !blender52 || !redisServer)('one Blender version per job on a farm of a 3.4 and a 4.3 render worker', () => {
  let work: string;
  let redis: TestRedis;
  let t: TestNode;
  let info34: BlenderInfo;
  const workers = new Map<string, WorkerProcess>();

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-blender-choice-'));
    redis = await startRedis(redisServer!);
    info34 = await probeBlender(blender34!, { timeoutMs: 60_000 });
    // The node reads every scene with its own Blender before its workers render it: it has the newest.
    t = await startTestNode({ blender: await probeBlender(blender43!, { timeoutMs: 60_000 }), distributed: { redis: { url: redis.url }, chunkSize: 1, reconcileMs: 1000 } });
    const start = async (name: string, blender: string) => workers.set(name, await startWorkerProcess({ redis: redis.url, node: t.url, name, cacheDir: join(work, `cache-${name}`), blender, threads: 1 }));
    await Promise.all([start('w34', blender34!), start('w43', blender43!)]);
  }, 180_000);

  afterAll(async () => {
    await Promise.allSettled([...workers.values()].map((w) => stopWorker(w)));
    await t?.stop();
    await redis?.dispose();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('publishes the workers\' Blender versions, and renders every frame of a 3.4 scene with 3.4, pixel-identical to it in place', async () => {
    const view = (await t.call('GET', '/node/workers')).json;
    expect(view.blenderVersions).toEqual([info34.version, expect.stringMatching(/^4\.3\./)]);
    expect(view.workers.find((w: any) => w.name === 'w43')).toMatchObject({ eevee: false });

    const scene = await tinyScene(blender34!, join(work, 'tiny34.blend'), 'CYCLES', 4);
    await renderInPlace(blender34!, scene, join(work, 'inplace', 'tiny_'), 1, 4);
    const inPlace = await Promise.all([1, 2, 3, 4].map(async (n) => decodePng(await readFile(join(work, 'inplace', `tiny_000${n}.png`)))));

    const job = await validated(t, 'tiny34.blend', await readFile(scene));
    expect(job.status).toBe('validated');
    expect(job.analysis.warnings).toEqual([]);
    const done = await render(t, job.id);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(done.finalConfig.blenderVersion).toBe(info34.version);

    const chunks = await completedChunks(redis.url, job.id);
    expect(chunks.flatMap((c) => c.data.frames).sort()).toEqual([1, 2, 3, 4]);
    for (const chunk of chunks) {
      expect(chunk.data.blender).toBe(info34.version);
      expect(chunk.returnvalue).toMatchObject({ worker: 'w34', blender: info34.version });
    }
    const frames = join(work, 'farm');
    await mkdir(frames);
    for (const output of (await t.call('GET', `/jobs/${job.id}/downloads`)).json.frameOutputs as { fileName: string; url: string }[]) {
      await writeFile(join(frames, output.fileName), Buffer.from(await (await fetch(output.url)).arrayBuffer()));
    }
    await expectSameFrames(frames, ['tiny_0001.png', 'tiny_0002.png', 'tiny_0003.png', 'tiny_0004.png'], inPlace);
  }, 240_000);

  it('renders a 3.4 scene asked to render with 4.3 on the 4.3 worker only, pixel-identical to Blender 4.3 in place; refuses a version the farm lacks', async () => {
    const scene = join(work, 'tiny34.blend');
    await renderInPlace(blender43!, scene, join(work, 'inplace43', 'tiny_'), 1, 2);
    const inPlace = await Promise.all([1, 2].map(async (n) => decodePng(await readFile(join(work, 'inplace43', `tiny_000${n}.png`)))));

    const job = await validated(t, 'tiny34.blend', await readFile(scene));
    const ask = (blenderVersion: string) => t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', frameRanges: ['1-2'], blenderVersion } });
    const refused = await ask('5.2');
    expect(refused.status).toBe(400);
    const [v34, v43] = (await t.call('GET', '/node/workers')).json.blenderVersions;
    expect(refused.json.error.message).toBe(`This node has no Blender 5.2: it renders with Blender ${v34}, ${v43} (its render workers'); ask for one of ${v34}, ${v43}, or leave the choice to the farm.`);
    const asked = await ask('4.3');
    expect(asked.status, JSON.stringify(asked.json)).toBe(200);
    const version43 = asked.json.finalConfig.blenderVersion;
    expect(version43).toBe(v43);
    expect(asked.json.analysis.warnings).toEqual([
      { code: 'different-blender', message: `Saved with Blender 3.4, rendered with Blender ${version43} as asked: a newer one may render some things differently.` },
    ]);
    const done = await waitForJob(t, job.id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 180_000);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(done.finalConfig.blenderVersion).toBe(version43);

    const chunks = await completedChunks(redis.url, job.id);
    expect(chunks.flatMap((c) => c.data.frames).sort()).toEqual([1, 2]);
    for (const chunk of chunks) {
      expect(chunk.data.blender).toBe(version43);
      expect(chunk.returnvalue).toMatchObject({ worker: 'w43', blender: version43 });
    }
    const frames = join(work, 'farm43');
    await mkdir(frames);
    for (const output of (await t.call('GET', `/jobs/${job.id}/downloads`)).json.frameOutputs as { fileName: string; url: string }[]) {
      await writeFile(join(frames, output.fileName), Buffer.from(await (await fetch(output.url)).arrayBuffer()));
    }
    await expectSameFrames(frames, ['tiny_0001.png', 'tiny_0002.png'], inPlace);
  }, 240_000);

  it('keeps a 4.3 scene waiting, saying why, when its 4.3 worker leaves; the 3.4 worker never gets its chunks', async () => {
    const scene = await tinyScene(blender43!, join(work, 'tiny43.blend'));
    const job = await validated(t, 'tiny43.blend', await readFile(scene));
    expect(job.status).toBe('validated');
    await stopWorker(workers.get('w43')!);
    workers.delete('w43');
    expect((await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default' } })).status).toBe(200);
    const waiting = await waitForJob(t, job.id, (j) => typeof j.statusMessage === 'string', 30_000);
    expect(waiting.statusMessage).toBe('Waiting: no render worker has Blender 4.3 or newer');
    expect(waiting.status).toBe('booting');
    expect(await completedChunks(redis.url, job.id, 0)).toEqual([]);
    expect((await t.call('POST', `/jobs/${job.id}/cancel`)).status).toBe(200);
  }, 120_000);

  it('fails the validation of a scene no connected worker can open, in one line, before a chunk exists', async () => {
    const job = await validated(t, 'tiny43.blend', await readFile(join(work, 'tiny43.blend')));
    expect(job.status).toBe('failed');
    expect(job.failedReason).toEqual({
      name: 'SceneTooNew',
      type: 'blender',
      message: `The scene was saved with Blender 4.3, and this farm's render workers have Blender ${info34.version} only, which cannot open it. Send it to a farm with Blender 4.3 or newer.`,
    });
  }, 60_000);

  it('refuses a 5.2 file before any upload, naming both versions', async () => {
    const scene = await tinyScene(blender52!, join(work, 'tiny52.blend'));
    const uploadsBefore = uploadCount(t);
    const journal = new SubmissionJournal({ dataDir: join(work, 'client') });
    const client = new ApiClient({ baseUrl: t.url, apiKey: t.key });
    const { record } = await recordForFile(journal, { filePath: scene, baseUrl: t.url, profileId: null });
    const error = await new SubmissionLifecycle({ client, journal }).advance(record, { until: 'validated' }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      `tiny52.blend was saved with Blender 5.2, and this farm renders with Blender ${info34.version} only, which cannot open it. Nothing was sent; send it to a farm that has Blender 5.2 or newer.`,
    );
    expect(await journal.get(record.id)).toMatchObject({ ending: 'failed', slug: null, jobId: null });
    expect(uploadCount(t)).toBe(uploadsBefore);
  }, 60_000);
});

describe.skipIf(!blender43)('EEVEE on a node whose Blender cannot draw (Blender 4.3 without EGL)', () => {
  let work: string;
  let t: TestNode;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-eevee-'));
    t = await startTestNode({ blenderPath: blender43! });
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('logs at start what node doctor says, warns before Start, and renders with Cycles instead of failing', async () => {
    const doctor = await runDoctor({ explicit: blender43!, env: process.env, platform: process.platform });
    const finding = eeveeFinding(doctor.eevee!);
    expect(finding).toMatch(/^Warning: EEVEE cannot render here \(.*libEGL/);
    expect(doctor.problems).toContain(finding);
    expect(t.logs()).toContain(JSON.stringify(finding).slice(1, -1));
    expect(t.node.blender?.eeveeUsable).toBe(false);

    const scene = await tinyScene(blender43!, join(work, 'eevee.blend'), 'BLENDER_EEVEE');
    const job = await validated(t, 'eevee.blend', await readFile(scene));
    expect(job.status).toBe('validated');
    expect(job.analysis.engine).toBe('BLENDER_EEVEE_NEXT');
    expect(job.analysis.warnings).toContainEqual({
      code: 'engine-unavailable',
      message:
        "This farm's Blender cannot render EEVEE (it has no GPU drawing here): Start renders this job with Cycles instead, which looks different and may take longer. To keep EEVEE, send it to another farm.",
    });
    const done = await render(t, job.id);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(done.finalConfig.renderEngine).toBe('CYCLES');
    expect(done.finalConfig.adjustments).toContainEqual(expect.objectContaining({ field: 'renderEngine', requested: 'BLENDER_EEVEE_NEXT', used: 'CYCLES' }));
  }, 180_000);
});
