import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli';
import { diskUsage, watchPeaks, type Peaks } from '../helpers/process-peaks';
import { GIB, MIB, writeGzipBomb, writeUnderstatedZstd, writeZstdWithoutTable } from '../blend/helpers/blend-bombs';

const MAX_RSS = 300 * MIB;
const MAX_TEMP_DISK = 100 * MIB;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'rd-pack-bombs-'));
  await writeUnderstatedZstd(join(work, 'understated-1g.blend'), 1 * GIB, 64 * 1024);
  await writeUnderstatedZstd(join(work, 'understated-3g.blend'), 3 * GIB, 64 * 1024);
  await writeZstdWithoutTable(join(work, 'no-table-4g.blend'), 4);
  await writeGzipBomb(join(work, 'gzip-4g.blend'), 4);
}, 120_000);
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** `renderdrop pack <scene>` as its own process, with its temp folder watched. */
async function packWatched(scene: string, temp: string): Promise<{ code: number | null; stdout: string; stderr: string; peaks: Peaks }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/run.ts'), 'pack', scene], {
    cwd: ROOT,
    env: { ...process.env, TMPDIR: temp, TEMP: temp, TMP: temp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const watch = watchPeaks(child.pid!, async () => (await diskUsage([temp])).get(temp) ?? 0, 10);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr, peaks: await watch.stop() };
}

describe('renderdrop pack of a compressed .blend that unpacks to far more than it says', () => {
  it.each([
    ['understated-1g.blend', 'a zstd seek table claiming 64 KiB for a 1 GiB frame'],
    ['understated-3g.blend', 'a zstd seek table claiming 64 KiB for a 3 GiB frame'],
    ['no-table-4g.blend', 'zstd without seek table holding 4 GiB'],
    ['gzip-4g.blend', 'gzip holding 4 GiB'],
  ])('%s (%s) is refused in one line, in bounded memory and temp disk', async (name) => {
    const temp = join(work, `temp-${name}`);
    await mkdir(temp);
    const result = await packWatched(join(work, name), temp);
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toContain(name);
    expect(lines[0]).toMatch(/damaged|unpacks to more/);
    expect(result.peaks.rssBytes, `peak RSS ${(result.peaks.rssBytes / MIB).toFixed(0)} MiB`).toBeGreaterThan(0);
    expect(result.peaks.rssBytes, `peak RSS ${(result.peaks.rssBytes / MIB).toFixed(0)} MiB`).toBeLessThan(MAX_RSS);
    expect(result.peaks.diskBytes, `peak temp disk ${(result.peaks.diskBytes / MIB).toFixed(1)} MiB`).toBeLessThan(MAX_TEMP_DISK);
    expect((await readdir(temp)).filter((f) => f.startsWith('renderdrop-'))).toEqual([]);
  }, 60_000);
});
