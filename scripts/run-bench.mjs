// Runs the benchmarks of bench/ with tsx: all of them, or the ones named on the command line.
// Options (`--name=value`) go to every benchmark, as arguments and as `BENCH_<NAME>` environment variables;
// `--quick` gives each benchmark its small sizes (any option given on the command line wins).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = join(root, 'bench');
const PREFERRED_ORDER = ['upload', 'download', 'tracker'];

/** Each benchmark's options with their defaults, what it needs, and the small sizes of `--quick`. */
const BENCHES = {
  upload: { options: '--sizes=1G,4G --runs=4 --node-data-parent=<dir>', quick: ['--sizes=16M', '--runs=2'] },
  download: { options: '--files=500 --file-size=1M --concurrency=8 --runs=3 --node-data-parent=<dir> --dest-parent=<dir>', quick: ['--files=40', '--file-size=256K', '--runs=2'] },
  tracker: { options: '--jobs=50 --ticks=300 --seconds=10', quick: ['--jobs=10', '--ticks=20', '--seconds=2'] },
  'queue-sync': { options: '--jobs=15 --rendering=5 --minutes=2 --naive-interval-ms=3000', quick: ['--jobs=5', '--rendering=2', '--minutes=1'] },
  'jobs-list': { options: '--jobs=10000 --seconds=5 --connections=10', quick: ['--jobs=1000', '--seconds=1', '--connections=4'] },
  'serve-file': { options: '--files=200 --file-size=1M --runs=3', quick: ['--files=20', '--runs=2'] },
  startup: { options: '--runs=10 --cli-root=<checkout>', needs: 'npm run build first', quick: ['--runs=2'] },
  trace: { options: '--runs=5 --faces=1000000 --big=2G --data-parent=<dir>', needs: 'Blender', quick: ['--runs=1', '--faces=10000', '--big=64M'] },
  pack: { options: '--sizes=256M,1G --packed=1G --runs=4 --data-parent=<dir>', needs: 'zip, and Blender unless --packed=0', quick: ['--sizes=32M', '--packed=32M', '--runs=1'] },
  'chunked-upload': { options: '--size=1G --runs=2 --mbit=100 --data-parent=<dir>', needs: 'Blender', quick: ['--size=64M', '--runs=1'] },
  'node-flow': { options: '--runs=3', needs: 'Blender', quick: ['--runs=1'] },
  'frame-previews': { options: '--runs=3 --frames=6 --format=OPEN_EXR --width=1920 --height=1080', needs: 'Blender', quick: ['--runs=1', '--frames=2', '--width=320', '--height=180'] },
  distributed: { options: '--runs=2 --frames=16 --samples=64 --percentage=400 --chunk-size=auto', needs: 'Blender and redis-server', quick: ['--runs=1', '--frames=4', '--samples=4', '--percentage=50'] },
  estimate: { options: '--size=full', needs: 'Blender', quick: ['--size=quick'] },
  'frame-order': { options: '--runs=1 --frames=128 --copies=200 --samples=8 --width=160 --height=90', needs: 'Blender and redis-server', quick: ['--frames=64', '--copies=20', '--width=96', '--height=54'] },
  scheduler: { options: '--jobs=1000 --workers=50 --rounds=20 --runs=5 --chunks-per-job=4', needs: 'redis-server', quick: ['--jobs=200', '--workers=10', '--rounds=5', '--runs=1'] },
  'ui-queue': { options: '--jobs=10000 --frames=240 --runs=3', needs: 'Chromium', quick: ['--jobs=500', '--frames=30', '--runs=1'] },
};

const available = readdirSync(benchDir)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => name.slice(0, -'.ts'.length))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

function rank(name) {
  const index = PREFERRED_ORDER.indexOf(name);
  return index === -1 ? PREFERRED_ORDER.length : index;
}

function help() {
  const width = Math.max(...available.map((name) => name.length)) + 2;
  const lines = available.map((name) => {
    const bench = BENCHES[name];
    if (!bench) return `  ${name.padEnd(width)}(no options listed)`;
    const needs = bench.needs ? `   (needs ${bench.needs})` : '';
    return `  ${name.padEnd(width)}${bench.options}${needs}\n  ${''.padEnd(width)}quick: ${bench.quick.join(' ')}`;
  });
  return `usage: npm run bench -- [${available.join('|')} ...] [--quick] [--option=value ...]

Runs the named benchmarks (default: all) one after another with tsx. Each checks its figures before it
prints them (a figure that cannot be right stops it with one line saying which and why), prints its
tables and writes <name>.json to bench/results (or to --results-dir=<dir>). Options go to every
benchmark, also as BENCH_<OPTION> environment variables. Options and defaults:
${lines.join('\n')}
--quick runs each benchmark with its small sizes above (a minute or two for all of them on 2 CPUs; the
figures are only a smoke test); an option given on the command line wins over the quick one.`;
}

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(help());
  process.exit(0);
}

const quick = args.includes('--quick');
const names = args.filter((arg) => !arg.startsWith('-'));
const options = args.filter((arg) => arg.startsWith('-') && arg !== '--quick');
const unknown = names.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Available: ${available.join(', ')}.`);
  process.exit(2);
}

const selected = names.length > 0 ? names : available;
const unlisted = selected.filter((name) => !BENCHES[name]);
if (quick && unlisted.length > 0) {
  console.error(`No quick options for ${unlisted.join(', ')}: add them to BENCHES in scripts/run-bench.mjs.`);
  process.exit(2);
}

const optionName = (option) => /^--([a-z][a-z0-9-]*)=/i.exec(option)?.[1];

/** The options of one benchmark: those given, then its quick ones that were not given. */
function optionsOf(name) {
  if (!quick) return options;
  const given = new Set(options.map(optionName));
  return [...options, ...BENCHES[name].quick.filter((option) => !given.has(optionName(option)))];
}

function envOf(benchOptions) {
  const env = { ...process.env };
  for (const option of benchOptions) {
    const match = /^--([a-z][a-z0-9-]*)=(.*)$/i.exec(option);
    if (match) env[`BENCH_${match[1].toUpperCase().replace(/-/g, '_')}`] = match[2];
  }
  return env;
}

const outcomes = [];
for (const name of selected) {
  const benchOptions = optionsOf(name);
  console.log(`\n=== bench/${name}.ts${quick ? ` (quick: ${benchOptions.join(' ')})` : ''} ===`);
  const started = Date.now();
  const result = spawnSync(process.execPath, ['--import', 'tsx', join('bench', `${name}.ts`), ...benchOptions], { cwd: root, env: envOf(benchOptions), stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const status = result.signal ? `killed by ${result.signal}` : result.status === 0 ? 'ok' : `failed (exit ${result.status})`;
  outcomes.push({ name, status, seconds, ok: result.status === 0 });
  if (result.signal === 'SIGINT' || result.status === 130) break;
}

console.log('\n=== benchmarks ===');
for (const outcome of outcomes) console.log(`${outcome.name.padEnd(14)} ${outcome.status} in ${outcome.seconds} s`);
process.exit(outcomes.every((outcome) => outcome.ok) && outcomes.length === selected.length ? 0 : 1);
