import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeBlender } from '../../src/render-node/blender/probe';
import { runBlender } from '../../src/render-node/blender/run-blender';
import { requireBlender } from '../helpers/blender';
import { runCli } from '../helpers/cli';
import { startTestNode, type TestNode } from '../helpers/node';
import { makePackingScene, renderInPlace } from '../helpers/pack-corpus';
import { decodePng, type Pixels } from '../helpers/png-pixels';
import { expectSameFrames } from '../helpers/same-frames';
import { cliSetup, parseSubmissions, type CliSetup } from './helpers/cli-setup';
import { spawnCli, until } from './helpers/spawn-cli';
import { startThrottleProxy } from './helpers/throttle-proxy';

const blenderPath = requireBlender();
const MiB = 1024 * 1024;

/** An OpenEXR header saying "no compression", then random bytes: a large texture that travels stored. */
function bigTexture(size: number): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32LE(0x01312f76, 0);
  head.writeUInt32LE(2, 4);
  const attribute = Buffer.concat([Buffer.from('compression\0compression\0', 'latin1'), Buffer.from([1, 0, 0, 0, 0]), Buffer.from([0])]);
  return Buffer.concat([head, attribute, randomBytes(size)]);
}

describe.skipIf(!blenderPath)('a scene sent in chunks to a Renderdrop node (real nodes, real Blender)', () => {
  let work: string;
  let scene: string;
  let chunked: TestNode;
  let plain: TestNode;
  let toChunked: CliSetup;
  let toPlain: CliSetup;
  const inPlaceOf = async (prefix: string) => {
    await renderInPlace(blenderPath!, scene, join(work, prefix, 'frame_'), 1, 2);
    return Promise.all([1, 2].map(async (n) => decodePng(await readFile(join(work, prefix, `frame_000${n}.png`)))));
  };
  const submit = async (setup: CliSetup, out: string, extra: string[] = []) => {
    const run = await runCli(['submit', scene, '--yes', '--download', out, '--project', work, '--json', ...extra], { env: setup.env, timeoutMs: 170_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    return parseSubmissions(run.stdout)[0];
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-cli-chunked-'));
    scene = (await makePackingScene(blenderPath!, work)).scene;
    await writeFile(join(work, 'proj', 'textures', 'big.exr'), bigTexture(6 * 1024 * 1024));
    const blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    chunked = await startTestNode({ blender });
    plain = await startTestNode({ blender, chunkStoreMaxBytes: 0 });
    toChunked = await cliSetup(chunked.url, chunked.key);
    toPlain = await cliSetup(plain.url, plain.key);
  });
  afterAll(async () => {
    await chunked?.stop();
    await plain?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('renders pixel-identical to the same scene sent as a zip to a farm without chunked uploads', async () => {
    const inPlace: Pixels[] = await inPlaceOf('inplace');
    const asZip = await submit(toPlain, join(work, 'out-zip'));
    expect(asZip.upload).toBeUndefined();
    expect(plain.logs()).toContain('upload stored');
    expect(plain.logs()).not.toContain('chunked upload rebuilt');

    const inChunks = await submit(toChunked, join(work, 'out-chunks'));
    // A first submission of a project of textures goes whole in one PUT; the node keeps its chunks.
    expect(inChunks.upload).toMatchObject({ bytesReused: 0, bytesSent: (await toChunked.journal())[0]!.bundle!.size });
    expect(chunked.logs()).toContain('chunked upload received whole');
    expect(chunked.logs()).not.toContain('upload stored');
    const [zipRecord] = await toPlain.journal();
    const [chunkRecord] = await toChunked.journal();
    await expectSameFrames(zipRecord!.downloadedTo!, ['shot_0001.png', 'shot_0002.png'], inPlace);
    await expectSameFrames(chunkRecord!.downloadedTo!, ['shot_0001.png', 'shot_0002.png'], inPlace);
  });

  it('re-saved by Blender with one object moved, sends a few per cent of the bundle and renders as Blender does in place', async () => {
    const moved = await runBlender({
      blenderPath: blenderPath!,
      args: ['-b', '-Y', '--factory-startup', scene, '--python-exit-code', '1', '--python-expr', "import bpy; bpy.data.objects['grid'].location.x += 0.05; bpy.ops.wm.save_mainfile()"],
      timeoutMs: 120_000,
    });
    expect(moved.exitCode, moved.stdout + moved.stderr).toBe(0);
    const inPlace = await inPlaceOf('inplace-moved');
    const again = await submit(toChunked, join(work, 'out-moved'), ['--new']);
    expect(chunked.logs()).toContain('chunked upload rebuilt');
    const record = (await toChunked.journal()).find((r) => r.id === again.submissionId)!;
    const bundle = record.bundle!.size;
    expect(again.upload.bytesReused + again.upload.bytesSent).toBeGreaterThan(bundle * 0.9);
    expect(again.upload.bytesSent).toBeLessThanOrEqual(bundle * 0.05);
    await expectSameFrames(record.downloadedTo!, ['shot_0001.png', 'shot_0002.png'], inPlace);
  });

  it('killed mid-upload, the same submit goes on and sends only what had not arrived', async () => {
    await writeFile(join(work, 'proj', 'textures', 'big.exr'), bigTexture(24 * MiB));
    const proxy = await startThrottleProxy(chunked.url);
    try {
      const setup = await cliSetup(proxy.url, chunked.key);
      proxy.setUploadRate(4 * MiB);
      const start = proxy.uploadedBytes();
      const child = spawnCli(['submit', scene, '--yes', '--project', work, '--frames', '1'], setup.env);
      await until('three batches to pass', () => proxy.uploadedBytes() - start > 10 * MiB);
      child.child.kill('SIGKILL');
      await child.exited;
      proxy.setUploadRate(null);
      const [killed] = await setup.journal();
      expect(killed).toMatchObject({ step: 'upload-target', ending: null, jobId: null });

      const again = await runCli(['submit', scene, '--yes', '--project', work, '--frames', '1', '--json'], { env: setup.env, timeoutMs: 170_000 });
      expect(again.code, again.stdout + again.stderr).toBe(0);
      const [result] = parseSubmissions(again.stdout);
      expect(result.submissionId).toBe(killed!.id);
      const bundle = (await setup.journal())[0]!.bundle!.size;
      expect(result.upload.bytesReused).toBeGreaterThanOrEqual(8 * MiB);
      expect(result.upload.bytesSent).toBeLessThan(bundle - 8 * MiB);
    } finally {
      await proxy.close();
    }
  });
});
