// Builds the command-line tool into out/cli (the desktop app is built by electron-vite).
import { build } from 'esbuild';

await build({
  entryPoints: { renderdrop: 'src/cli/run.ts' },
  outdir: 'out/cli',
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  sourcemap: true,
  packages: 'external',
  logLevel: 'warning',
});
console.log('built out/cli/renderdrop.js');
