import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireChromium } from '../e2e/chromium';
import { requireBlender } from '../helpers/blender';
import { ROOT } from '../helpers/cli';
import { requireRedis } from '../helpers/redis';
import { requireTool } from '../helpers/tools';

/**
 * Every benchmark of bench/ run quickly (`npm run bench -- <name> --quick`) as a process: it must exit
 * with 0, so none crashed and none refused one of its own figures, and write its summary. A benchmark
 * whose tool is missing is skipped on a developer's machine and fails in CI.
 */
const BENCHES = readdirSync(join(ROOT, 'bench'))
  .filter((name) => name.endsWith('.ts'))
  .map((name) => name.slice(0, -'.ts'.length))
  .sort();

/** Why a tool is missing (null when it is there); in CI the require* helpers throw, and their message is the reason. */
function missing(tool: string, found: () => unknown): string | null {
  try {
    return found() ? null : `${tool} is not installed`;
  } catch (error) {
    return (error as Error).message;
  }
}

const blender = missing('Blender', requireBlender);
const tools = {
  blender,
  redis: missing('redis-server', requireRedis),
  zip: missing('zip', () => requireTool('zip')),
  chromium: missing('Chromium', requireChromium),
  build: existsSync(join(ROOT, 'out', 'main', 'index.js')) ? null : 'the app is not built (run npm run build)',
};
const NEEDS: Record<string, (keyof typeof tools)[]> = {
  trace: ['blender'],
  pack: ['zip', 'blender'],
  'node-flow': ['blender'],
  'chunked-upload': ['blender'],
  'frame-previews': ['blender'],
  distributed: ['blender', 'redis'],
  'frame-order': ['blender', 'redis'],
  scheduler: ['redis'],
  'ui-queue': ['chromium'],
  startup: ['build'],
};
/** Longest one quick benchmark may take (the slowest takes well under a minute on 2 CPUs). */
const BENCH_TIMEOUT_MS = 240_000;

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** Runs one benchmark quickly, in its own process group so a timeout stops it and everything it started. */
function runQuick(name: string, resultsDir: string): Promise<Ran> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('BENCH_')));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/run-bench.mjs', name, '--quick', `--results-dir=${resultsDir}`], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const stop = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
    };
    const term = setTimeout(() => stop('SIGTERM'), BENCH_TIMEOUT_MS - 20_000);
    const kill = setTimeout(() => stop('SIGKILL'), BENCH_TIMEOUT_MS - 10_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(term);
      clearTimeout(kill);
      resolve({ code, signal, output });
    });
  });
}

describe('every benchmark, run quickly, exits 0 and refuses none of its figures', () => {
  let resultsDir = '';
  beforeAll(async () => {
    resultsDir = await mkdtemp(join(tmpdir(), 'rd-bench-quick-'));
  });
  afterAll(async () => {
    if (resultsDir) await rm(resultsDir, { recursive: true, force: true });
  });

  it('finds the benchmarks', () => {
    expect(BENCHES).toContain('distributed');
  });

  for (const name of BENCHES) {
    const lacking = (NEEDS[name] ?? []).map((tool) => tools[tool]).filter((reason): reason is string => reason !== null);
    it.skipIf(lacking.length > 0 && !process.env.CI)(
      name,
      async () => {
        if (lacking.length > 0) throw new Error(`bench/${name}.ts cannot run: ${lacking.join('; ')}`);
        const ran = await runQuick(name, resultsDir);
        const refused = ran.output.split('\n').filter((line) => line.includes('figure refused:'));
        expect(refused, `bench/${name}.ts refused figures:\n${refused.join('\n')}`).toEqual([]);
        expect(ran.code, `bench/${name}.ts ended ${ran.signal ?? `with exit code ${ran.code}`}:\n${ran.output.slice(-4000)}`).toBe(0);
        const summary = JSON.parse(await readFile(join(resultsDir, `${name}.json`), 'utf8')) as { bench: string };
        expect(summary.bench).toBe(name);
      },
      BENCH_TIMEOUT_MS,
    );
  }
});
