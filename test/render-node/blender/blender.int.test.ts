import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { readBlendFileHead } from '../../../src/blend/reader';
import { analyzeScene, SceneAnalysisError } from '../../../src/render-node/blender/analyze';
import { formatDoctorReport, runDoctor } from '../../../src/render-node/blender/doctor';
import type { RenderEvent } from '../../../src/render-node/blender/event-lines';
import { makePreview } from '../../../src/render-node/blender/preview';
import { checkEevee, probeBlender, type BlenderInfo } from '../../../src/render-node/blender/probe';
import { isBlenderProcessAlive, startRender, type BlenderRenderPlan } from '../../../src/render-node/blender/render';
import { runBlender } from '../../../src/render-node/blender/run-blender';

const blender = requireBlender();

function pngSize(buf: Buffer): [number, number] {
  expect(buf.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
}

function jpegSize(buf: Buffer): [number, number] {
  expect(buf.readUInt16BE(0)).toBe(0xffd8);
  let i = 2;
  while (i < buf.length) {
    const marker = buf.readUInt16BE(i);
    const length = buf.readUInt16BE(i + 2);
    if (marker >= 0xffc0 && marker <= 0xffc3) return [buf.readUInt16BE(i + 7), buf.readUInt16BE(i + 5)];
    i += 2 + length;
  }
  throw new Error('no JPEG frame header');
}

/** Running Blender processes whose command line mentions `needle` (zombies have none, so they do not count). */
async function blenderProcessesMentioning(needle: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (/blender/i.test(cmdline) && cmdline.includes(needle)) pids.push(Number(entry));
  }
  return pids;
}

describe.skipIf(!blender)('Blender integration', () => {
  const blenderPath = blender!;
  let work: string;
  let sample: string;
  let info: BlenderInfo;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'renderdrop-blender-int-'));
    sample = await makeSampleScene(work);
    info = await probeBlender(blenderPath, { timeoutMs: 60_000 });
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  describe('probe and doctor', () => {
    it('reports the version, devices, denoisers and colour management of this Blender', () => {
      expect(info.path).toBe(blenderPath);
      expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(info.version.startsWith(info.versionParts.join('.'))).toBe(true);
      expect(info.cyclesDevices[0]).toBe('CPU');
      expect(typeof info.openImageDenoise).toBe('boolean');
      expect(info.optix).toBe(info.cyclesDevices.includes('OPTIX'));
      expect(info.viewTransforms).toContain('Standard');
      expect(info.hasAces).toBe(info.viewTransforms.some((v) => /aces/i.test(v)));
      expect(info.eeveeUsable).toBeNull();
    });

    it('tries a real EEVEE render and says whether it worked', async () => {
      const eevee = await checkEevee(blenderPath, { timeoutMs: 60_000 });
      if (eevee.usable) expect(eevee.reason).toBeNull();
      else expect(eevee.reason).toBeTruthy();
    });

    it('doctor finds this Blender and says it can render', async () => {
      const report = await runDoctor({ explicit: blenderPath, env: process.env, platform: process.platform });
      expect(report.ok).toBe(true);
      expect(report.source).toBe('explicit');
      expect(report.found?.version).toBe(info.version);
      expect(typeof report.found?.eeveeUsable).toBe('boolean');
      expect(report.problems.some((p) => p.includes('denoiser'))).toBe(!info.openImageDenoise && !info.optix);
      expect(formatDoctorReport(report)).toContain(`Blender ${info.version}: ${blenderPath}`);
    });
  });

  describe('analyzeScene', () => {
    it('reads the settings, cameras, layers and missing texture of the sample scene', async () => {
      const analysis = await analyzeScene({ blenderPath, scenePath: sample, nodeBlenderVersion: info.version, timeoutMs: 60_000 });
      expect(analysis).toMatchObject({
        savedWithBlender: `${info.versionParts[0]}.${info.versionParts[1]}`,
        nodeBlender: info.version,
        savedWithNewerBlender: false,
        scene: 'Scene',
        engine: 'CYCLES',
        frameStart: 1,
        frameEnd: 3,
        frameStep: 1,
        fps: 24,
        fpsBase: 1,
        resolution: [64, 36],
        resolutionPercentage: 100,
        samples: 4,
        denoisingEnabled: false,
        cameras: ['Camera', 'CloseUp'],
        activeCamera: 'Camera',
        viewLayers: [
          { name: 'ViewLayer', useForRender: true },
          { name: 'Background', useForRender: true },
        ],
        activeViewLayer: 'ViewLayer',
        outputFormat: 'PNG',
        outputSettings: { colorMode: 'RGBA', colorDepth: '8', exrCodec: null, tiffCodec: null, quality: null },
        outputPath: '//render/sample_####',
        usesCompositor: false,
        totalFrames: 3,
      });
      expect(await readBlendFileHead(sample)).toMatchObject({ compression: 'none', format: 'legacy', pointerSize: 8, version: analysis.savedWithBlender });
      expect(analysis.colorManagement.displayDevice).toBe('sRGB');
      expect(analysis.colorManagement.availableViewTransforms).toEqual(info.viewTransforms);
      expect(analysis.colorManagement.availableViewTransforms).toContain(analysis.colorManagement.viewTransform);
      expect(analysis.dependencies).toEqual([
        {
          kind: 'image',
          name: 'missing-albedo.png',
          path: '//textures/missing-albedo.png',
          resolvedPath: 'textures/missing-albedo.png',
          packed: false,
          exists: false,
        },
      ]);
      expect(analysis.warnings).toEqual([
        expect.objectContaining({ code: 'missing-dependency', path: '//textures/missing-albedo.png' }),
      ]);
    });

    it('resolves every kind of dependency, relative to the library that holds it', async () => {
      const dir = join(work, 'deps');
      await mkdir(join(dir, 'lib', 'textures'), { recursive: true });
      await mkdir(join(dir, 'seq'), { recursive: true });
      await mkdir(join(dir, 'udim'), { recursive: true });
      const png = await readFile(await firstRenderedPng());
      await writeFile(join(dir, 'lib', 'textures', 'wood.png'), png);
      await writeFile(join(dir, 'seq', 'frame_0002.png'), png);
      await writeFile(join(dir, 'udim', 'albedo.1001.png'), png);
      await makeSampleScene(join(dir, 'lib'), { texture: 'textures/wood.png', name: 'lib.blend' });
      const scenePath = await makeSampleScene(dir, { missingTexture: false, extraDependencies: true, linkFrom: 'lib/lib.blend', name: 'main.blend' });

      const analysis = await analyzeScene({ blenderPath, scenePath, nodeBlenderVersion: info.version, timeoutMs: 60_000 });
      const byName = Object.fromEntries(analysis.dependencies.map((d) => [d.name, d]));
      expect(byName['lib.blend']).toMatchObject({ kind: 'library', path: '//lib/lib.blend', resolvedPath: 'lib/lib.blend', exists: true });
      expect(byName['wood.png']).toMatchObject({ kind: 'image', path: '//textures/wood.png', resolvedPath: 'lib/textures/wood.png', exists: true });
      expect(byName['Sequence']).toMatchObject({ kind: 'image', path: '//seq/frame_0001.png', exists: true });
      expect(byName['Tiles']).toMatchObject({ kind: 'image', path: '//udim/albedo.<UDIM>.png', exists: false });
      expect(byName['missing.wav']).toMatchObject({ kind: 'sound', resolvedPath: 'audio/missing.wav', exists: false });
      expect(byName['Smoke']).toMatchObject({ kind: 'volume', resolvedPath: 'vdb/smoke.vdb', exists: false });
      const missing = analysis.warnings.filter((w) => w.code === 'missing-dependency').map((w) => w.path);
      expect(missing.sort()).toEqual(['//audio/missing.wav', '//udim/albedo.1002.png', '//vdb/smoke.vdb']);

      await rm(join(dir, 'lib', 'lib.blend'));
      const without = await analyzeScene({ blenderPath, scenePath, nodeBlenderVersion: info.version, timeoutMs: 60_000 });
      expect(without.dependencies.find((d) => d.kind === 'library')).toMatchObject({ exists: false });
      expect(without.warnings.some((w) => w.path === '//lib/lib.blend')).toBe(true);
    });

    it('does not report a cache folder Blender made in its temporary folder as missing, but does a missing bake', async () => {
      const scenePath = join(work, 'fluids', 'fluids.blend');
      await mkdir(dirname(scenePath), { recursive: true });
      const script = [
        'import bpy, sys',
        'for name, folder in (("Old", "/tmp/blender_q8Xz2a/cache_fluid_5e2a1c3b"), ("Baked", "//cache_fluid_1a2b")):',
        '    obj = bpy.data.objects.new(name, bpy.data.meshes.new(name))',
        '    bpy.context.scene.collection.objects.link(obj)',
        '    mod = obj.modifiers.new("Fluid", "FLUID")',
        '    mod.fluid_type = "DOMAIN"',
        '    mod.domain_settings.cache_type = "MODULAR"',
        '    mod.domain_settings.cache_directory = folder',
        'bpy.ops.wm.save_as_mainfile(filepath=sys.argv[-1], relative_remap=False)',
      ].join('\n');
      const made = await runBlender({ blenderPath, args: ['-b', '-Y', '--factory-startup', sample, '--python-exit-code', '1', '--python-expr', script, '--', scenePath], timeoutMs: 120_000 });
      expect(made.exitCode, made.stderr).toBe(0);
      const analysis = await analyzeScene({ blenderPath, scenePath, nodeBlenderVersion: info.version, timeoutMs: 60_000 });
      expect(analysis.dependencies.filter((d) => d.kind === 'cache').map((d) => [d.name, d.path, d.exists])).toEqual([['Baked/Fluid', '//cache_fluid_1a2b', false]]);
      expect(analysis.warnings.filter((w) => w.path?.includes('cache_fluid')).map((w) => w.path)).toEqual(['//cache_fluid_1a2b']);
    });

    it('reads a compressed scene (zstd: its head is decompressed for the version when this Node.js has zstd)', async () => {
      const scenePath = await makeSampleScene(join(work, 'compressed'), { compress: true });
      const series = `${info.versionParts[0]}.${info.versionParts[1]}`;
      expect(await readBlendFileHead(scenePath)).toMatchObject({ compression: 'zstd', version: typeof zlib.zstdDecompressSync === 'function' ? series : null });
      const analysis = await analyzeScene({ blenderPath, scenePath, nodeBlenderVersion: info.version, timeoutMs: 60_000 });
      expect(analysis).toMatchObject({ engine: 'CYCLES', resolution: [64, 36], savedWithNewerBlender: false });
    });

    it('refuses a text file renamed .blend without starting Blender', async () => {
      const scenePath = join(work, 'notes.blend');
      await writeFile(scenePath, 'these are my notes, not a scene\n'.repeat(20));
      const error = await analyzeScene({ blenderPath, scenePath, nodeBlenderVersion: info.version }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SceneAnalysisError);
      expect(error).toMatchObject({ name: 'NotABlendFile', type: 'scene' });
    });

    it('reports a truncated .blend as damaged, with what Blender said and no folder of the node', async () => {
      const full = await readFile(sample);
      const scenePath = join(work, 'broken.blend');
      await writeFile(scenePath, full.subarray(0, Math.floor(full.length / 3)));
      const error = await analyzeScene({ blenderPath, scenePath, nodeBlenderVersion: info.version, timeoutMs: 60_000 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'SceneUnreadable', type: 'scene' });
      expect((error as Error).message).toMatch(/^Blender could not read broken\.blend( \(.+\))?: it may be damaged or incomplete\./);
      expect((error as Error).message).not.toContain(work);
    });
  });

  describe('startRender', () => {
    let outDir: string;
    let scene: string;

    async function render(plan: BlenderRenderPlan) {
      const events: RenderEvent[] = [];
      const handle = startRender({ blenderPath, scenePath: scene, sceneRoot: dirname(scene), plan, onEvent: (e) => events.push(e) });
      const result = await handle.done;
      return { result, events };
    }

    beforeAll(async () => {
      scene = await makeSampleScene(join(work, 'render'), { fileOutput: true });
      outDir = join(work, 'render', 'out');
    });

    it('renders chosen frames with the requested overrides', async () => {
      const plan: BlenderRenderPlan = {
        frames: [1, 3],
        outputDir: outDir,
        outputFormat: 'JPEG',
        outputSettings: { colorMode: 'RGBA', quality: 90 },
        samples: 2,
        resolutionPercentage: 50,
        camera: 'CloseUp',
        viewLayer: 'Background',
        denoise: { enabled: false },
        device: 'CPU',
        compositeOutputDir: join(work, 'render', 'composite'),
      };
      const { result, events } = await render(plan);
      expect(result.exitCode, result.stderrTail).toBe(0);
      expect(events.map((e) => e.event)).toEqual(['ready', 'frame', 'frame', 'done']);
      expect(result.framesWritten).toEqual([
        { frame: 1, path: join(outDir, 'sample_0001.jpg'), seconds: expect.any(Number), skipped: false },
        { frame: 3, path: join(outDir, 'sample_0003.jpg'), seconds: expect.any(Number), skipped: false },
      ]);
      expect((await readdir(outDir)).sort()).toEqual(['sample_0001.jpg', 'sample_0003.jpg']);
      for (const frame of result.framesWritten) {
        const bytes = await readFile(frame.path);
        expect(jpegSize(bytes)).toEqual([32, 18]);
        expect(bytes.toString('latin1')).toContain('Blender:Camera:CloseUp');
        expect(bytes.toString('latin1')).toContain('samples:2');
      }
      expect((await readdir(join(work, 'render', 'composite', 'Extra'))).sort()).toEqual(['Image0001.png', 'Image0003.png']);
    });

    it('resumes by skipping frames already written', async () => {
      const before = await stat(join(outDir, 'sample_0001.jpg'));
      const { result } = await render({ frames: [1, 2, 3], outputDir: outDir, outputFormat: 'JPEG', samples: 1, resolutionPercentage: 50 });
      expect(result.exitCode, result.stderrTail).toBe(0);
      expect(result.framesWritten.map((f) => [f.frame, f.skipped])).toEqual([
        [1, true],
        [2, false],
        [3, true],
      ]);
      expect((await stat(join(outDir, 'sample_0001.jpg'))).mtimeMs).toBe(before.mtimeMs);
      expect(jpegSize(await readFile(join(outDir, 'sample_0002.jpg')))).toEqual([32, 18]);
    });

    it('reports a plan it cannot apply', async () => {
      const { result, events } = await render({ frames: [1], outputDir: join(work, 'render', 'bad'), camera: 'NoSuchCamera' });
      expect(result.exitCode).toBe(1);
      expect(result.error).toContain('NoSuchCamera');
      expect(events.map((e) => e.event)).toEqual(['error']);
      expect(result.stderrTail).toContain('NoSuchCamera');
    });

    it('aborting kills Blender at once, leaving no process behind', async () => {
      const slow = await makeSampleScene(join(work, 'abort'), { frames: 40 });
      const controller = new AbortController();
      const events: RenderEvent[] = [];
      const handle = startRender({
        blenderPath,
        scenePath: slow,
        sceneRoot: dirname(slow),
        plan: { frames: Array.from({ length: 40 }, (_, i) => i + 1), outputDir: join(work, 'abort', 'out'), samples: 4096, resolution: [320, 180] },
        signal: controller.signal,
        onEvent: (e) => {
          events.push(e);
          if (e.event === 'ready') setTimeout(() => controller.abort(), 300);
        },
      });
      expect(isBlenderProcessAlive(handle.pid)).toBe(true);
      const started = Date.now();
      const result = await handle.done;
      expect(result.aborted).toBe(true);
      expect(result.signal).toBe('SIGTERM');
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(events[0]?.event).toBe('ready');
      expect(events.some((e) => e.event === 'done')).toBe(false);
      expect(isBlenderProcessAlive(handle.pid)).toBe(false);
      expect(await blenderProcessesMentioning(join(work, 'abort'))).toEqual([]);
    });
  });

  describe('makePreview', () => {
    it('shrinks a float EXR to fit and keeps a small JPEG at its size', async () => {
      const dir = join(work, 'preview');
      const handle = startRender({
        blenderPath,
        scenePath: sample,
        sceneRoot: dirname(sample),
        plan: { frames: [2], outputDir: dir, outputFormat: 'OPEN_EXR', outputSettings: { colorDepth: '16', exrCodec: 'ZIP' }, resolution: [600, 300], samples: 1 },
      });
      const { exitCode, framesWritten } = await handle.done;
      expect(exitCode).toBe(0);
      expect(framesWritten[0]!.path).toBe(join(dir, 'sample_0002.exr'));

      const exrPreview = await makePreview({ blenderPath, imagePath: framesWritten[0]!.path, outPath: join(dir, 'exr.png'), maxSize: 256 });
      expect(exrPreview).toEqual({ path: join(dir, 'exr.png'), width: 256, height: 128 });
      expect(pngSize(await readFile(join(dir, 'exr.png')))).toEqual([256, 128]);

      const jpeg = join(work, 'render', 'out', 'sample_0001.jpg');
      const jpegPreview = await makePreview({ blenderPath, imagePath: jpeg, outPath: join(dir, 'jpeg.png'), maxSize: 512 });
      expect(jpegPreview).toMatchObject({ width: 32, height: 18 });
      expect(pngSize(await readFile(join(dir, 'jpeg.png')))).toEqual([32, 18]);
    });

    it('fails clearly on a file that is not an image', async () => {
      const bogus = join(work, 'preview', 'bogus.png');
      await writeFile(bogus, 'not an image');
      await expect(makePreview({ blenderPath, imagePath: bogus, outPath: join(work, 'preview', 'bogus-out.png') })).rejects.toThrow(/bogus\.png/);
    });
  });

  /** A PNG rendered from the sample scene, to use as a texture. */
  async function firstRenderedPng(): Promise<string> {
    const dir = join(work, 'png-source');
    const { exitCode, framesWritten } = await startRender({ blenderPath, scenePath: sample, sceneRoot: dirname(sample), plan: { frames: [1], outputDir: dir, samples: 1 } }).done;
    expect(exitCode).toBe(0);
    const target = join(work, 'texture.png');
    await copyFile(framesWritten[0]!.path, target);
    return target;
  }

});
