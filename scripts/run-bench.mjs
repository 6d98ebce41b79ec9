// Runs the benchmarks of bench/ with tsx: all of them, or the ones named on the command line.
// Options (`--name=value`) go to every benchmark, as arguments and as `BENCH_<NAME>` environment variables.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = join(root, 'bench');
const PREFERRED_ORDER = ['upload', 'download', 'tracker'];

const available = readdirSync(benchDir)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => name.slice(0, -'.ts'.length))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

function rank(name) {
  const index = PREFERRED_ORDER.indexOf(name);
  return index === -1 ? PREFERRED_ORDER.length : index;
}

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(`usage: npm run bench -- [${available.join('|')} ...] [--option=value ...]

Runs the named benchmarks (default: all) one after another with tsx. Each prints its tables and writes
bench/results/<name>.json. Options go to every benchmark, also as BENCH_<OPTION> environment variables.
  upload:   --sizes=1G,4G --runs=4 --node-data-parent=<dir>
  download: --files=500 --file-size=1M --concurrency=8 --runs=3 --node-data-parent=<dir> --dest-parent=<dir>
  serve-file: --files=200 --file-size=1M --runs=3
  tracker:  --jobs=50 --ticks=300 --seconds=10
  queue-sync: --jobs=15 --rendering=5 --minutes=2 --naive-interval-ms=3000
  trace:    --runs=5 --faces=1000000 --big=2G --data-parent=<dir>   (needs Blender)
  pack:     --sizes=256M,1G --runs=4 --data-parent=<dir>   (needs zip)
  startup:  --runs=10 --cli-root=<checkout>   (run npm run build first)
  jobs-list: --jobs=10000 --seconds=5 --connections=10
  distributed: --runs=2 --frames=16 --samples=64 --percentage=400 --chunk-size=auto   (needs Blender and redis-server)
Quick run: npm run bench -- --sizes=64M --runs=2 --ticks=30 --seconds=3`);
  process.exit(0);
}

const names = args.filter((arg) => !arg.startsWith('-'));
const options = args.filter((arg) => arg.startsWith('-'));
const unknown = names.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Available: ${available.join(', ')}.`);
  process.exit(2);
}

const env = { ...process.env };
for (const option of options) {
  const match = /^--([a-z][a-z0-9-]*)=(.*)$/i.exec(option);
  if (match) env[`BENCH_${match[1].toUpperCase().replace(/-/g, '_')}`] = match[2];
}

const selected = names.length > 0 ? names : available;
const outcomes = [];
for (const name of selected) {
  console.log(`\n=== bench/${name}.ts ===`);
  const started = Date.now();
  const result = spawnSync(process.execPath, ['--import', 'tsx', join('bench', `${name}.ts`), ...options], { cwd: root, env, stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const status = result.signal ? `killed by ${result.signal}` : result.status === 0 ? 'ok' : `failed (exit ${result.status})`;
  outcomes.push({ name, status, seconds, ok: result.status === 0 });
  if (result.signal === 'SIGINT' || result.status === 130) break;
}

console.log('\n=== benchmarks ===');
for (const outcome of outcomes) console.log(`${outcome.name.padEnd(10)} ${outcome.status} in ${outcome.seconds} s`);
process.exit(outcomes.every((outcome) => outcome.ok) && outcomes.length === selected.length ? 0 : 1);
