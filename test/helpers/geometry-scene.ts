import { join } from 'node:path';
import { z } from 'zod';
import { runBlender } from '../../src/render-node/blender/run-blender';
import { ROOT } from './cli';

const rgb = z.tuple([z.number(), z.number(), z.number()]);

const geometrySceneSchema = z.object({
  scene: z.string(),
  bakeDirectory: z.string(),
  bakeIds: z.object({ simulation: z.number(), bake_custom: z.number(), bake_packed: z.number(), never: z.number() }),
  imports: z.object({ obj: z.string(), stl: z.string() }).partial(),
  packedLibrary: z.string().nullable(),
  colours: z.record(z.string(), rgb),
});

/** What make-geometry-scene.py made: the scene, its bakes, the files its Import nodes read, the colour of each shape. */
export type GeometryScene = z.infer<typeof geometrySceneSchema>;

/**
 * Build the Geometry Nodes scene of make-geometry-scene.py in `root` (an existing folder) with the Blender
 * at `blenderPath` (4.1 or newer): baked simulation and Bake nodes, and with 5.x Import nodes and packed
 * linked data.
 */
export async function makeGeometryScene(blenderPath: string, root: string): Promise<GeometryScene> {
  const script = join(ROOT, 'test', 'fixtures', 'blender', 'make-geometry-scene.py');
  const args = ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python', script, '--', root];
  const result = await runBlender({ blenderPath, args, timeoutMs: 170_000 });
  if (result.exitCode !== 0) throw new Error(`make-geometry-scene.py failed (exit ${result.exitCode}):\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-3000)}`);
  const line = result.stdout.split('\n').find((l) => l.startsWith('GEOMETRY '));
  if (!line) throw new Error(`make-geometry-scene.py printed no GEOMETRY line:\n${result.stdout.slice(-3000)}`);
  return geometrySceneSchema.parse(JSON.parse(line.slice('GEOMETRY '.length)));
}
