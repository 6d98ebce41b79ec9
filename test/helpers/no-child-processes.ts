import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { afterAll, afterEach } from 'vitest';

/**
 * Setup file of the `unit` project: every way of starting a process throws, so a unit test that
 * starts one (a CLI, a shell, zip, mount, Blender, Redis, Chromium) fails loudly instead of getting
 * slow and depending on what is installed. Code that catches the error does not hide it: the test
 * fails afterwards all the same. The originals come back after the file's tests, so a worker reused
 * by another project is left as it was.
 */
const MESSAGE = 'unit tests run in-process: move this test to *.int.test.ts';
const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
type Starter = (typeof STARTERS)[number];

const writable = childProcess as unknown as Record<Starter, unknown>;
const originals = new Map<Starter, unknown>(STARTERS.map((name) => [name, writable[name]]));
const attempts: string[] = [];

for (const name of STARTERS) {
  writable[name] = (command: unknown) => {
    const attempt = `child_process.${name}(${JSON.stringify(String(command))})`;
    attempts.push(attempt);
    throw new Error(`${MESSAGE} (${attempt})`);
  };
}
syncBuiltinESMExports();

afterEach(() => {
  if (attempts.length > 0) throw new Error(`${MESSAGE}; this test tried ${attempts.splice(0).join(', ')}`);
});

afterAll(() => {
  for (const [name, original] of originals) writable[name] = original;
  syncBuiltinESMExports();
});
