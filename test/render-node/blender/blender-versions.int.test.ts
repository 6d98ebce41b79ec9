import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blendersUnderTest } from '../../helpers/blenders';
import { decodePng } from '../../helpers/png-pixels';
import { readBlendFileHead } from '../../../src/blend/reader';
import { BlendFile } from '../../../src/blend/reader/blend-file';
import { probeBlender } from '../../../src/render-node/blender/probe';
import { runBlender } from '../../../src/render-node/blender/run-blender';

/** A cube, a camera and a sun, Cycles on the CPU with 4 samples at 64x64, saved to the path after `--`. */
const TINY_SCENE = `
import bpy, sys
out = sys.argv[sys.argv.index("--") + 1]
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
sun.rotation_euler = (0.6, 0.2, 0.4)
scene.collection.objects.link(sun)
scene.render.engine = "CYCLES"
scene.cycles.device = "CPU"
scene.cycles.samples = 4
scene.cycles.use_denoising = False
scene.render.resolution_x = 64
scene.render.resolution_y = 64
scene.render.resolution_percentage = 100
scene.render.image_settings.file_format = "PNG"
bpy.ops.wm.save_as_mainfile(filepath=out)
`;

async function blender(path: string, args: string[]): Promise<void> {
  const result = await runBlender({ blenderPath: path, args, timeoutMs: 120_000 });
  if (result.exitCode !== 0) {
    throw new Error(`Blender ${args.join(' ')} exited with ${result.exitCode ?? result.signal}:\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-2000)}`);
  }
}

for (const under of blendersUnderTest()) {
  const title = `Blender ${under.series}${under.path ? '' : ` (skipped: ${under.missing})`}`;
  describe.skipIf(!under.path)(title, () => {
    const path = under.path!;
    let work: string;

    beforeAll(async () => {
      work = await mkdtemp(join(tmpdir(), `renderdrop-blender-${under.series}-`));
    });
    afterAll(async () => {
      if (work) await rm(work, { recursive: true, force: true });
    });

    it(`is Blender ${under.series} to the node's probe`, async () => {
      const info = await probeBlender(path, { timeoutMs: 120_000 });
      expect(info.version.split('.').slice(0, 2).join('.')).toBe(under.series);
      expect(info.cyclesDevices[0]).toBe('CPU');
    });

    it('saves a scene of its own version and renders it the same twice', async () => {
      const scene = join(work, 'tiny.blend');
      await blender(path, ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python-expr', TINY_SCENE, '--', scene]);
      const [major, minor] = under.series.split('.').map(Number) as [number, number];
      const file = await BlendFile.open(scene);
      try {
        expect(file.header.version).toBe(major * 100 + minor);
        expect(file.header.formatVersion).toBe(major >= 5 ? 1 : 0);
      } finally {
        await file.close();
      }
      const head = await readBlendFileHead(scene);
      if (head?.compression === 'none') expect(head.version).toBe(under.series);
      else expect(head?.compression).toBe('zstd');

      const frames: Buffer[] = [];
      for (const run of ['a', 'b']) {
        await blender(path, ['-b', scene, '-o', join(work, `${run}-####`), '-F', 'PNG', '-f', '1']);
        frames.push(await readFile(join(work, `${run}-0001.png`)));
      }
      const [first, second] = frames.map(decodePng);
      expect([first!.width, first!.height]).toEqual([64, 64]);
      expect(second!.data.equals(first!.data)).toBe(true);
      const distinct = new Set<string>();
      for (let i = 0; i < first!.data.length; i += first!.channels) distinct.add(first!.data.subarray(i, i + 3).toString('hex'));
      expect(distinct.size).toBeGreaterThan(10);
    });
  });
}
