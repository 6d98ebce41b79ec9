import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleSizeBound } from '../../../src/blend/pack/bundle-plan';
import { writeBundle } from '../../../src/blend/pack/write-bundle';
import { traceScene } from '../../../src/blend/pack/trace-scene';
import { bundleOverLimit } from '../../../src/core/packing/bundle-limit';
import { SyntheticBlend } from '../../blend/helpers/synthetic-blend';
import { writeTree } from '../../blend/helpers/scene-folder';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rd-bundle-limit-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function project(files: Record<string, string | Buffer>): Promise<string> {
  const blend = new SyntheticBlend();
  for (const name of Object.keys(files)) blend.addImage({ name, path: `//${name}` });
  await writeTree(root, { 'proj/shot.blend': blend.build(), ...Object.fromEntries(Object.entries(files).map(([name, data]) => [`proj/${name}`, data])) });
  return join(root, 'proj', 'shot.blend');
}

describe('the upload limit, checked on the planned bundle', () => {
  it('bounds the bundle the plan writes, and refuses it from the bound on, before anything is written', async () => {
    const scene = await project({ 'textures/plate.exr': Buffer.alloc(200_000, 'exr'), 'textures/grid.png': Buffer.alloc(30_000, 7) });
    const plan = await traceScene(scene);
    const bound = bundleSizeBound(plan);
    const written = await writeBundle(plan, join(root, 'bundle.zip'));
    expect(bound).toBeGreaterThanOrEqual(written.bytes);
    expect(bundleOverLimit(plan, bound + 1)).toBeNull();
    expect(bundleOverLimit(plan, bound)).toBe(
      `shot.blend and the files it uses would make a bundle of up to ${(bound / 1000).toFixed(0)} KB (the largest file: ${join(root, 'proj', 'textures', 'plate.exr')}, 200 KB), and uploads must be smaller than ${(bound / 1000).toFixed(0)} KB.`,
    );
  });

  it('refuses 5 GiB of files (a sparse file, nothing written) against the API\'s limit, and leaves a scene sent alone to preflight', async () => {
    const scene = await project({ 'caches/plate.exr': 'x' });
    await truncate(join(root, 'proj', 'caches', 'plate.exr'), 5 * 1024 ** 3 - 10_000);
    const plan = await traceScene(scene);
    expect(bundleOverLimit(plan)).toMatch(/^shot\.blend and the files it uses would make a bundle of up to 5\.4 GB \(the largest file: .*plate\.exr, 5\.4 GB\), and uploads must be smaller than 5 GiB\.$/);
    await truncate(join(root, 'proj', 'caches', 'plate.exr'), 4 * 1024 ** 3);
    expect(bundleOverLimit(await traceScene(scene))).toBeNull();

    const alone = new SyntheticBlend();
    alone.addImage({ name: 'Gone', path: '//nowhere.png' });
    await writeFile(join(root, 'proj', 'alone.blend'), alone.build());
    expect(bundleOverLimit(await traceScene(join(root, 'proj', 'alone.blend')), 1)).toBeNull();
  });
});
