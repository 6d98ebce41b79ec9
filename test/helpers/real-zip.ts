import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { requireZipTool } from './zip-tools';

/** The zip tools real artists' zips come from. */
export type ZipTool = 'zip' | '7z';

/** Whether `tool` is installed (in CI its absence fails the run; see requireZipTool). */
export function hasZipTool(tool: ZipTool): boolean {
  return requireZipTool(tool) !== null;
}

/**
 * A zip made by the real `tool` (Info-ZIP `zip -r`, or `7z a -tzip`) of a folder holding `files`
 * (relative path: content), written as `<name>` in a fresh folder; returns its path.
 */
export async function realZip(tool: ZipTool, name: string, files: Record<string, string | Buffer>): Promise<string> {
  const path = requireZipTool(tool);
  if (!path) throw new Error(`${tool} is not installed; guard the test with hasZipTool('${tool}').`);
  const work = await mkdtemp(join(tmpdir(), 'rd-real-zip-'));
  const source = join(work, 'project');
  for (const [relative, content] of Object.entries(files)) {
    await mkdir(dirname(join(source, relative)), { recursive: true });
    await writeFile(join(source, relative), content);
  }
  const out = join(work, name);
  const env = { ...process.env, LC_ALL: 'C.UTF-8' };
  if (tool === 'zip') execFileSync(path, ['-r', '-q', out, '.'], { cwd: source, env });
  else execFileSync(path, ['a', '-tzip', '-bd', out, '.'], { cwd: source, env, stdio: 'ignore' });
  return out;
}
