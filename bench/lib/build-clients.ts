import { build } from 'esbuild';
import { join } from 'node:path';
import { RESULTS_DIR } from './report';

const CLIENTS_DIR = join(RESULTS_DIR, '..', 'clients');
const OUT_DIR = join(RESULTS_DIR, '.clients');

/**
 * Bundles a client script of bench/clients the way the CLI is built (esbuild, npm packages left
 * external), so the measured child process runs plain JavaScript with no TypeScript loader in it.
 * Returns the path of the bundle, inside the git-ignored bench/results.
 */
export async function buildClient(name: 'upload-client' | 'download-client' | 'trace-client' | 'pack-client' | 'load-client'): Promise<string> {
  const outfile = join(OUT_DIR, `${name}.mjs`);
  await build({
    entryPoints: [join(CLIENTS_DIR, `${name}.ts`)],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}
