import { afterEach } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A small file system mounted for a test, to be filled up. */
export interface SmallDisk {
  dir: string;
  /** Bytes still free. */
  free(): number;
  /** Write a filler file so that only about `leaveBytes` stay free (never more than that). */
  fill(leaveBytes?: number): Promise<void>;
  /** Remove the filler. */
  unfill(): Promise<void>;
  /** Mount another small file system on a folder inside this one. */
  mountInside(relative: string, sizeMb: number): SmallDisk;
  unmount(): void;
}

function mountTmpfs(dir: string, sizeMb: number): SmallDisk {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0755`, 'tmpfs', dir], { stdio: 'pipe' });
  const filler = join(dir, '.filler');
  const inner: SmallDisk[] = [];
  const disk: SmallDisk = {
    dir,
    free: () => {
      const s = statfsSync(dir);
      return s.bavail * s.bsize;
    },
    async fill(leaveBytes = 0) {
      const handle = await open(filler, 'a');
      try {
        const chunk = Buffer.alloc(256 * 1024, 0x5a);
        for (let left = disk.free() - leaveBytes; left > 0; left = disk.free() - leaveBytes) {
          try {
            await handle.write(chunk, 0, Math.min(chunk.length, left));
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
            throw err;
          }
        }
      } finally {
        await handle.close();
      }
    },
    unfill: () => rm(filler, { force: true }),
    mountInside(relative, size) {
      const child = mountTmpfs(join(dir, relative), size);
      inner.push(child);
      return child;
    },
    unmount() {
      for (const child of inner.splice(0)) child.unmount();
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
    },
  };
  return disk;
}

let probed: boolean | null = null;

/**
 * Whether this machine lets tests mount a small tmpfs (it needs root, as on the test machines and in
 * CI). Without it: false, so the caller can `describe.skipIf`, except in CI (`CI` set), where it
 * throws so the run fails instead of skipping.
 */
export function requireSmallDisk(): boolean {
  if (probed === null) {
    const dir = mkdtempSync(join(tmpdir(), 'rd-disk-probe-'));
    try {
      mountTmpfs(dir, 1).unmount();
      probed = true;
    } catch (err) {
      probed = false;
      if (process.env.CI) {
        throw new Error(`The disk-full tests need to mount a small tmpfs (run them as root), and it failed: ${(err as Error).message}`, { cause: err });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return probed;
}

/** Mount a fresh tmpfs of `sizeMb` MiB on a new temp folder. */
export function mountSmallDisk(sizeMb: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'rd-small-disk-'));
  try {
    const disk = mountTmpfs(dir, sizeMb);
    const unmount = disk.unmount;
    disk.unmount = () => {
      unmount();
      rmSync(dir, { recursive: true, force: true });
    };
    return disk;
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Small disks for the tests of one file, and what runs on them: after each test, everything kept is
 * stopped first (so nothing writes to a disk being unmounted), then the disks are unmounted.
 */
export function smallDisksPerTest(): { mount(sizeMb: number): SmallDisk; keep<T extends { stop(): Promise<void> }>(running: T): T } {
  const disks: SmallDisk[] = [];
  const running: { stop(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const r of running.splice(0)) await r.stop();
    for (const d of disks.splice(0)) d.unmount();
  });
  return {
    mount(sizeMb) {
      const disk = mountSmallDisk(sizeMb);
      disks.push(disk);
      return disk;
    },
    keep(r) {
      running.push(r);
      return r;
    },
  };
}
