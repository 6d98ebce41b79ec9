import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { option } from './options';

/** bench/results, where each benchmark writes its JSON summary (git-ignored). */
export const RESULTS_DIR = join(dirname(dirname(fileURLToPath(import.meta.url))), 'results');

/** The median of some numbers (mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A number with a fixed count of decimals, or `n/a`. */
export function fixed(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(digits);
}

/** Prints a titled table with right-aligned columns (the first one left-aligned). */
export function printTable(title: string, headers: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(`\n${title}`);
  console.log(line(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

/** The load average, with a warning when other work is competing for the CPUs. */
export function loadNote(): string {
  const [one, five] = loadavg();
  const busy = one! > cpus().length * 0.5;
  return `Load average ${one!.toFixed(2)} (1 min), ${five!.toFixed(2)} (5 min) on ${cpus().length} CPUs${busy ? ': other work is running, figures will be noisy' : ''}.`;
}

/** The machine and tools a result was measured with. */
export function environment(): Record<string, unknown> {
  const curl = spawnSync('curl', ['--version'], { encoding: 'utf8' });
  return {
    node: process.version,
    curl: curl.status === 0 ? curl.stdout.split('\n')[0] : null,
    cpu: cpus()[0]?.model ?? null,
    cpus: cpus().length,
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    platform: `${process.platform} ${process.arch}`,
    loadAverage: loadavg(),
  };
}

/** Writes `<name>.json` to bench/results (or the folder of `--results-dir`) and says where. */
export async function writeResults(name: string, data: Record<string, unknown>): Promise<void> {
  const path = join(option('results-dir', RESULTS_DIR), `${name}.json`);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify({ bench: name, measuredAt: new Date().toISOString(), environment: environment(), ...data }, null, 2)}\n`);
  console.log(`\nSummary written to ${path}`);
}
