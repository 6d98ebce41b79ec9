import { join } from 'node:path';
import { z } from 'zod';
import { runBlender } from '../../src/render-node/blender/run-blender';
import { ROOT } from './cli';

const rgb = z.tuple([z.number(), z.number(), z.number()]);
const chainsSchema = z.object({
  forest: z.object({ project: z.string(), scene: z.string(), forest: z.string(), tree: z.string() }),
  loop: z.object({ project: z.string(), scene: z.string(), setA: z.string(), setB: z.string() }),
  colours: z.record(z.string(), rgb),
});

/** The projects make-library-chains.py writes, and the colour each .blend's plane shows. */
export type LibraryChains = z.infer<typeof chainsSchema>;

/** Build the library-chain projects (test/fixtures/blender/make-library-chains.py) in `root`, an existing folder, with real Blender. */
export async function makeLibraryChains(blenderPath: string, root: string): Promise<LibraryChains> {
  const script = join(ROOT, 'test', 'fixtures', 'blender', 'make-library-chains.py');
  const result = await runBlender({ blenderPath, args: ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python', script, '--', root], timeoutMs: 170_000 });
  const line = result.stdout.split('\n').find((l) => l.startsWith('CHAINS '));
  if (result.exitCode !== 0 || !line) throw new Error(`make-library-chains.py failed (exit ${result.exitCode}):\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-3000)}`);
  return chainsSchema.parse(JSON.parse(line.slice('CHAINS '.length)));
}
