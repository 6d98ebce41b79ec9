import { join } from 'node:path';
import { z } from 'zod';
import { runBlender } from '../../src/render-node/blender/run-blender';
import { ROOT } from './cli';

const scenesSchema = z.object({ wobble: z.string(), simple: z.string(), plain: z.string() });

/** The scenes make-python-scenes.py writes: a Python driver with its registered text block, simple drivers only, none. */
export type PythonScenes = z.infer<typeof scenesSchema>;

/** Build the scene-Python scenes in `root` (an existing folder) with the Blender at `blenderPath`. */
export async function makePythonScenes(blenderPath: string, root: string): Promise<PythonScenes> {
  const script = join(ROOT, 'test', 'fixtures', 'blender', 'make-python-scenes.py');
  const result = await runBlender({ blenderPath, args: ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python', script, '--', root], timeoutMs: 170_000 });
  const line = result.stdout.split('\n').find((l) => l.startsWith('SCENES '));
  if (result.exitCode !== 0 || !line) throw new Error(`make-python-scenes.py failed (exit ${result.exitCode}):\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-3000)}`);
  return scenesSchema.parse(JSON.parse(line.slice('SCENES '.length)));
}

/** Render frames `first`..`last` where the scene is, as the artist's Blender does when it trusts the file (`-y`), to `<outPrefix>####.png`. */
export async function renderTrustingInPlace(blenderPath: string, scene: string, outPrefix: string, first: number, last: number): Promise<void> {
  const args = ['-b', '-y', '--factory-startup', scene, '-o', `${outPrefix}####`, '-s', String(first), '-e', String(last), '-a'];
  const result = await runBlender({ blenderPath, args, timeoutMs: 170_000 });
  if (result.exitCode !== 0) throw new Error(`rendering ${scene} failed (exit ${result.exitCode}):\n${result.stderr.slice(-3000)}`);
}
