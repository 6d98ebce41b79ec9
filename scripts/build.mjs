// Builds the command-line tool into out/cli (the desktop app is built by electron-vite). Each command's
// implementation is its own chunk, loaded by a dynamic import when the command runs, so that `--version`,
// `--help` and small commands do not load the render node, the packer or the web host.
// `--outdir=<dir>` builds elsewhere (tests inspect a build of their own).
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// Packages stay in node_modules, except zod: bundled into the chunk that needs it, it loads as one
// module instead of dozens, which is most of a small command's start-up.
const BUNDLED = new Set(['zod']);
const external = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})].filter((name) => !BUNDLED.has(name));

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
  external: external.flatMap((name) => [name, `${name}/*`]),
  logLevel: 'warning',
});
console.log(`built ${outdir}/renderdrop.js`);
