// Builds the command-line tool into out/cli (the desktop app is built by electron-vite). Each command's
// implementation is its own chunk, loaded by a dynamic import when the command runs, so that `--version`,
// `--help` and small commands do not load the render node, the packer or the web host.
// `--outdir=<dir>` builds elsewhere (tests inspect a build of their own).
import { build } from 'esbuild';

const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length) ?? 'out/cli';
await build({
  entryPoints: { renderdrop: 'src/cli/run.ts' },
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: true,
  packages: 'external',
  logLevel: 'warning',
});
console.log(`built ${outdir}/renderdrop.js`);
