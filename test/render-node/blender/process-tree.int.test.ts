import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { killProcessTree } from '../../../src/render-node/blender/process-tree';

/** Running (zombies waiting for init to reap them do not count). */
function alive(pid: number): boolean {
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(process.platform === 'win32')('killProcessTree on real process groups', () => {
  it('ends a process group, children included', async () => {
    const child = spawn('sh', ['-c', 'sleep 30 & echo $!; wait'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    const grandchild = await new Promise<number>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
    const closed = new Promise((resolve) => child.once('close', resolve));
    expect(alive(grandchild)).toBe(true);
    await killProcessTree(child.pid!, { graceMs: 2000 });
    await closed;
    expect(alive(grandchild)).toBe(false);
  });

  it('uses SIGKILL when SIGTERM is ignored', async () => {
    const child = spawn('sh', ['-c', 'trap "" TERM; echo ready; while true; do sleep 0.1; done'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const closed = new Promise<NodeJS.Signals | null>((resolve) => child.once('close', (_code, signal) => resolve(signal)));
    const started = Date.now();
    await killProcessTree(child.pid!, { graceMs: 300 });
    expect(await closed).toBe('SIGKILL');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});
