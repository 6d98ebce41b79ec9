import { spawnSync } from 'node:child_process';

/**
 * The path of a command-line tool the tests use (`unzip`, `7z`, `zip`). Without it: null, so the test
 * can be skipped, except in CI (`CI` set), where a missing tool fails the run.
 */
export function requireTool(name: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const path = found.status === 0 ? found.stdout.trim() : null;
  if (!path && process.env.CI) throw new Error(`${name} is required for these tests in CI but was not found. Install it (e.g. \`apt install ${name === '7z' ? 'p7zip-full' : name}\`).`);
  return path;
}
