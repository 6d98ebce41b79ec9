import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/** The file Renderdrop writes beside the add-on it installed, naming what it put there. */
export const MANIFEST_NAME = '.renderdrop-install.json';

const manifestSchema = z.object({
  product: z.literal('renderdrop'),
  version: z.string(),
  installedAt: z.string(),
  files: z.array(z.object({ path: z.string(), sha256: z.string() })),
  /** How the add-on runs the `renderdrop` command that installed it (program and first arguments). */
  cli: z.array(z.string()).nullable(),
  /** Environment the recorded command needs (the desktop app's own CLI runs its Electron binary as Node). */
  cliEnv: z.record(z.string(), z.string()).optional(),
});

/** What an installation wrote: the version, each file with its hash, the command to run. */
export type InstallManifest = z.infer<typeof manifestSchema>;

/** The SHA-256 of a file, hex. */
export async function fileHash(path: string): Promise<string> {
  return createHash('sha256').update(await readFile(path)).digest('hex');
}

/** The manifest in an add-on folder, or null when there is none (or it is not Renderdrop's). */
export async function readManifest(dir: string): Promise<InstallManifest | null> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_NAME), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
