import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { z } from 'zod';
import { runBlender } from '../../../src/render-node/blender/run-blender';
import { ROOT } from '../../helpers/cli';

/** Output of a process run to its end. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program with `env` added to this process's environment. */
export function run(program: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 170_000): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(program, args, { env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 32 << 20 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** Builds the command-line tool into out/cli (esbuild, a few seconds), as `npm run build` does. */
export async function buildCli(): Promise<void> {
  const built = await run(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], {}, 120_000);
  if (built.code !== 0) throw new Error(`building the CLI failed:\n${built.stdout}\n${built.stderr}`);
}

/** Runs the built `renderdrop` (bin/renderdrop.js) with `env` added. */
export function runBuiltCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs?: number): Promise<Ran> {
  return run(process.execPath, [join(ROOT, 'bin', 'renderdrop.js'), ...args], env, timeoutMs);
}

const sceneSchema = z.object({ scene: z.string(), library: z.string(), colours: z.record(z.string(), z.tuple([z.number(), z.number(), z.number()])) });

/** Builds the add-on tests' scene (test/fixtures/blender/make-addon-scene.py) in `root`, an existing folder. */
export async function makeAddonScene(blenderPath: string, root: string): Promise<z.infer<typeof sceneSchema>> {
  const script = join(ROOT, 'test', 'fixtures', 'blender', 'make-addon-scene.py');
  const result = await runBlender({ blenderPath, args: ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python', script, '--', root], timeoutMs: 120_000 });
  const line = result.stdout.split('\n').find((l) => l.startsWith('SCENE '));
  if (result.exitCode !== 0 || !line) throw new Error(`make-addon-scene.py failed (exit ${result.exitCode}):\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-3000)}`);
  return sceneSchema.parse(JSON.parse(line.slice('SCENE '.length)));
}
