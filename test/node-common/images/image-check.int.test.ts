import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { mountSmallDisk, requireSmallDisk } from '../../helpers/small-disk';
import { runBlender } from '../../../src/render-node/blender/run-blender';
import { bufferBytes } from '../../../src/node-common/images/random-access-bytes';
import { checkImage, checkImageFile } from '../../../src/node-common/images/image-check';

const blenderPath = requireBlender();
const canMount = requireSmallDisk();
const SAMPLES_SCRIPT = fileURLToPath(new URL('../../fixtures/make-image-samples.py', import.meta.url));

/** Cut points spread over the whole file, plus the first and last bytes. */
function cutPoints(size: number): number[] {
  const points = new Set([1, 2, 4, 8, 16, 100, size - 1, size - 2, Math.floor(size / 2)]);
  for (let i = 1; i < 60; i++) points.add(Math.floor((size * i) / 60));
  return [...points].filter((n) => n > 0 && n < size).sort((a, b) => a - b);
}

describe.skipIf(!blenderPath)('image completeness of what Blender writes', () => {
  let samples: string;
  let scene: string;
  let work: string;
  afterAll(() => rm(work, { recursive: true, force: true }));
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-image-check-'));
    scene = await makeSampleScene(work, {});
    samples = join(work, 'samples');
    await mkdir(samples);
    const result = await runBlender({
      blenderPath: blenderPath!,
      args: ['-b', '-Y', '--factory-startup', scene, '--python-exit-code', '1', '--python', SAMPLES_SCRIPT, '--', samples],
      timeoutMs: 120_000,
    });
    expect(result.exitCode, result.stdout.slice(-2000) + result.stderr.slice(-2000)).toBe(0);
  });

  it('finds every format whole, and every copy cut short incomplete', async () => {
    const files = (await readdir(samples)).sort();
    expect(files.length).toBeGreaterThanOrEqual(23);
    for (const name of files) {
      const bytes = await readFile(join(samples, name));
      expect(await checkImageFile(join(samples, name)), name).toMatchObject({ status: 'complete' });
      for (const n of cutPoints(bytes.length)) {
        const check = await checkImage(bufferBytes(bytes.subarray(0, n)), name);
        expect(check.status, `${name} cut at ${n} of ${bytes.length}`).toBe('incomplete');
      }
    }
  });

  it.skipIf(!canMount)('finds incomplete a frame Blender reports saved after the disk filled up under it', async () => {
    const disk = mountSmallDisk(8);
    try {
      const script = join(work, 'big-exr.py');
      await writeFile(
        script,
        [
          'import bpy, sys',
          's = bpy.context.scene',
          's.render.resolution_x = s.render.resolution_y = 1024',
          's.render.resolution_percentage = 100',
          's.cycles.samples = 1',
          "s.render.image_settings.file_format = 'OPEN_EXR'",
          "s.render.image_settings.exr_codec = 'NONE'",
          "s.render.image_settings.color_depth = '32'",
          's.render.filepath = sys.argv[-1]',
          'bpy.ops.render.render(write_still=True)',
        ].join('\n'),
      );
      const out = join(disk.dir, 'frame.exr');
      const result = await runBlender({
        blenderPath: blenderPath!,
        args: ['-b', '-Y', '--factory-startup', scene, '--python-exit-code', '1', '--python', script, '--', out],
        timeoutMs: 120_000,
      });
      expect(result.stdout).toMatch(/Saved: /);
      const check = await checkImageFile(out);
      expect(check).toMatchObject({ status: 'incomplete', format: 'OPEN_EXR' });
    } finally {
      disk.unmount();
    }
  });
});
