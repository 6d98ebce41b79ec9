import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Peak resident memory of a live process so far (VmHWM), in bytes; null once it has exited. */
export async function peakRss(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return kb ? Number(kb[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Bytes on disk under each of `dirs` (`du`, hard links counted once, for the first folder that
 * holds them), e.g. `[uploads, tmp, jobs]` to count what tmp and jobs add beyond the uploads.
 */
export async function diskUsage(dirs: readonly string[]): Promise<Map<string, number>> {
  const { stdout } = await run('du', ['-s', '-B1', ...dirs]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const out = new Map<string, number>();
  for (const line of stdout.trim().split('\n')) {
    const [bytes, dir] = line.split('\t');
    if (dir) out.set(dir, Number(bytes));
  }
  return out;
}

/** Peaks seen while polling a process: its resident memory and what `disk()` reports. */
export interface Peaks {
  rssBytes: number;
  diskBytes: number;
}

/**
 * Poll `pid`'s peak memory and `disk()` every `everyMs` until `stop()`, which returns the peaks. The
 * memory peak is the kernel's own high-water mark, so no spike between polls is missed while the
 * process lives.
 */
export function watchPeaks(pid: number, disk: () => Promise<number>, everyMs = 50): { stop: () => Promise<Peaks> } {
  const peaks: Peaks = { rssBytes: 0, diskBytes: 0 };
  let running = true;
  const sample = async () => {
    const rss = await peakRss(pid);
    if (rss !== null) peaks.rssBytes = Math.max(peaks.rssBytes, rss);
    peaks.diskBytes = Math.max(peaks.diskBytes, await disk());
  };
  const loop = (async () => {
    while (running) {
      await sample();
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      await sample();
      return peaks;
    },
  };
}
