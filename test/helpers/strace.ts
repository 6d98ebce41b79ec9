import { execFileSync } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The path of `strace`, used to see which files Blender touches. Without it: null (so the caller can
 * `it.skipIf`), except in CI (`CI` set), where a missing strace fails the run.
 */
export function requireStrace(): string | null {
  let path: string | null;
  try {
    path = execFileSync('sh', ['-c', 'command -v strace'], { encoding: 'utf8' }).trim() || null;
  } catch {
    path = null;
  }
  if (!path && process.env.CI) throw new Error('These tests need `strace` in CI but it was not found. Install it (Debian: apt install strace).');
  return path;
}

/**
 * A stand-in for Blender in `dir` that runs the real one under strace, logging every file system call
 * of it and its children; `touched()` returns that log.
 */
export async function tracedBlender(strace: string, blender: string, dir: string): Promise<{ path: string; touched: () => Promise<string> }> {
  const log = join(dir, 'strace.log');
  const path = join(dir, 'traced-blender.sh');
  await writeFile(path, `#!/bin/sh\nexec '${strace}' -f -qq -e trace=%file -o '${log}' '${blender}' "$@"\n`);
  await chmod(path, 0o755);
  return { path, touched: () => readFile(log, 'utf8') };
}
