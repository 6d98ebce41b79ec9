import { execFileSync } from 'node:child_process';

/**
 * The path of a command-line zip tool (`zip`, `7z`) the tests drive. Without it: null (so the caller
 * can `describe.skipIf`), except in CI (`CI` set), where a missing tool fails the run.
 */
export function requireZipTool(name: 'zip' | '7z'): string | null {
  let path: string | null;
  try {
    path = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    path = null;
  }
  if (!path && process.env.CI) {
    throw new Error(`The zip tests need \`${name}\` in CI but it was not found. Install it (Debian: apt install zip p7zip-full).`);
  }
  return path;
}
