/**
 * Start-up of the `renderdrop` command: `--version`, `--help`, `jobs --json` and `status <id>` against a
 * real render node in this process (no Blender), and `pack --json` of a small synthetic scene, each as a
 * separate process, against `node -e 0` in the same run (alternating order). Also the import time of the
 * desktop main bundle with `electron` resolved to a stub, as its own process.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SyntheticBlend } from '../test/blend/helpers/synthetic-blend';
import { startBenchNode } from './lib/bench-node';
import { checkStartup, refuseImpossible } from './lib/checks';
import { runBench, onCleanup, throwIfInterrupted } from './lib/cleanup';
import { assertSucceeded, runMeasured, type Measured } from './lib/measure';
import { intOption, option } from './lib/options';
import { fixed, loadNote, median, printTable, writeResults } from './lib/report';

const runs = intOption('runs', 10);
/** The checkout whose built CLI is measured (default: this one); another worktree measures a baseline. */
const cliRoot = resolve(option('cli-root', process.cwd()));
const bin = join(cliRoot, 'bin', 'renderdrop.js');

interface Case {
  label: string;
  args: string[];
  goal: { kind: 'ratio'; max: number } | { kind: 'seconds'; max: number } | null;
}

/**
 * A module standing in for `electron`: every name the bundle imports is an inert object whose methods
 * return nothing and whose `whenReady` never settles, so only the bundle's own module evaluation runs.
 */
function electronStub(names: string[]): string {
  const inert = 'new Proxy(function () {}, { get: (t, k) => (k === "whenReady" ? () => new Promise(() => {}) : k === "then" ? undefined : inert), apply: () => inert, construct: () => inert })';
  return `const inert = ${inert};\nexport default inert;\n${names.map((n) => `export const ${n} = inert;`).join('\n')}\n`;
}

async function electronLoader(dir: string, bundle: string): Promise<string> {
  const source = await readFile(bundle, 'utf8');
  const names = new Set<string>();
  for (const m of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*"electron"/g)) for (const n of m[1]!.split(',')) if (n.trim()) names.add(n.trim().split(/\s+as\s+/)[0]!);
  const stub = join(dir, 'electron-stub.mjs');
  await writeFile(stub, electronStub([...names]));
  const hooks = join(dir, 'electron-hooks.mjs');
  await writeFile(hooks, `export async function resolve(specifier, context, next) { return specifier === 'electron' ? { url: ${JSON.stringify(`file://${stub}`)}, shortCircuit: true } : next(specifier, context); }\n`);
  const register = join(dir, 'register.mjs');
  await writeFile(register, `import { register } from 'node:module'; register(${JSON.stringify(`file://${hooks}`)});\n`);
  return register;
}

async function smallScene(dir: string): Promise<string> {
  const blend = new SyntheticBlend();
  blend.addImage({ name: 'wood', path: '//textures/wood.png' });
  const scene = join(dir, 'small.blend');
  await writeFile(scene, blend.build());
  return scene;
}

async function main(): Promise<void> {
  const scratch = await mkdtemp(join(tmpdir(), 'rd-bench-startup-'));
  onCleanup(() => rm(scratch, { recursive: true, force: true }));
  const scene = await smallScene(scratch);
  const register = await electronLoader(scratch, join(cliRoot, 'out/main/index.js'));
  const node = await startBenchNode();
  const job = node.test.node.ctx.jobs.create({ userId: 'bench', uploadSlug: 'bench-startup', sceneFile: { fileName: 'shot.blend', fileType: 'blend', size: 1000, slug: 'bench-startup', scenePath: 'shot.blend' } });
  const env = { ...process.env, RENDERDROP_BASE_URL: node.test.url, RENDERDROP_API_KEY: node.test.key, RENDERDROP_CONFIG_DIR: join(scratch, 'config'), XDG_CONFIG_HOME: join(scratch, 'config') };
  const cases: Case[] = [
    { label: 'node -e 0', args: ['-e', '0'], goal: null },
    { label: '--version', args: [bin, '--version'], goal: { kind: 'ratio', max: 4 } },
    { label: '--help', args: [bin, '--help'], goal: { kind: 'ratio', max: 4 } },
    { label: 'jobs --json', args: [bin, 'jobs', '--json'], goal: { kind: 'seconds', max: 0.15 } },
    { label: 'status <id>', args: [bin, 'status', job.id], goal: { kind: 'seconds', max: 0.15 } },
    { label: 'pack --json (small scene)', args: [bin, 'pack', scene, '--json'], goal: { kind: 'seconds', max: 0.15 } },
    { label: 'desktop main bundle import (electron stubbed)', args: ['--import', register, '-e', `await import(${JSON.stringify(join(cliRoot, 'out/main/index.js'))}); process.exit(0)`, '--input-type=module'], goal: null },
  ];
  const samples = new Map<string, Measured[]>(cases.map((c) => [c.label, []]));
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? cases : [...cases].reverse();
    for (const c of order) {
      throwIfInterrupted();
      const measured = await runMeasured(process.execPath, c.args, { cwd: cliRoot, env, timeoutMs: 60_000 });
      assertSucceeded(c.label, measured);
      samples.get(c.label)!.push(measured);
    }
  }
  await node.stop();
  const reference = median(samples.get('node -e 0')!.map((m) => m.wallSeconds));
  const rows = cases.map((c) => {
    const ms = samples.get(c.label)!;
    const wall = median(ms.map((m) => m.wallSeconds));
    const rss = Math.max(...ms.map((m) => m.maxRssBytes ?? 0)) / 2 ** 20;
    const met = c.goal === null ? null : c.goal.kind === 'ratio' ? wall / reference <= c.goal.max : wall <= c.goal.max;
    const goal = c.goal === null ? '' : c.goal.kind === 'ratio' ? `<= ${c.goal.max}x node -e 0` : `<= ${c.goal.max} s`;
    return { label: c.label, wallSeconds: wall, peakRssMiB: rss, ratio: wall / reference, goal, met, samples: ms.map((m) => m.wallSeconds) };
  });
  refuseImpossible('startup', checkStartup({ runs, rows }));
  printTable(
    `renderdrop start-up (${cliRoot}), median of ${runs} runs`,
    ['command', 'median s', 'peak RSS MiB', 'x node -e 0', 'goal', 'met'],
    rows.map((r) => [r.label, fixed(r.wallSeconds, 3), fixed(r.peakRssMiB, 0), fixed(r.ratio, 1), r.goal, r.met === null ? '' : r.met ? 'yes' : 'no']),
  );
  console.log(loadNote());
  await writeResults('startup', { runs, cliRoot, referenceSeconds: reference, results: rows });
}

await runBench(main);
