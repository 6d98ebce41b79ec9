import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isBlenderProcessAlive, killProcessTree } from '../../../src/render-node/blender/process-tree';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('isBlenderProcessAlive', () => {
  it('on Linux, trusts only a process whose command line mentions blender', async () => {
    const proc = await mkdtemp(join(tmpdir(), 'fake-proc-'));
    dirs.push(proc);
    const put = async (pid: number, cmdline: string) => {
      await mkdir(join(proc, String(pid)));
      await writeFile(join(proc, String(pid), 'cmdline'), cmdline);
    };
    await put(100, '/usr/bin/blender\0-b\0scene.blend\0');
    await put(101, '/usr/bin/python3\0server.py\0');
    await put(102, '');
    const check = (pid: number) => isBlenderProcessAlive(pid, { platform: 'linux', procRoot: proc });
    expect(check(100)).toBe(true);
    expect(check(101)).toBe(false);
    expect(check(102)).toBe(false);
    expect(check(103)).toBe(false);
    expect(check(-1)).toBe(false);
  });

  it("needs the job's own folder in the command line when a marker is given", async () => {
    const proc = await mkdtemp(join(tmpdir(), 'fake-proc-'));
    dirs.push(proc);
    await mkdir(join(proc, '200'));
    await writeFile(join(proc, '200', 'cmdline'), '/usr/bin/blender\0-b\0/data/jobs/j1/scene/a.blend\0');
    await mkdir(join(proc, '201'));
    await writeFile(join(proc, '201', 'cmdline'), '/usr/bin/blender\0/home/artist/shot.blend\0');
    const check = (pid: number) => isBlenderProcessAlive(pid, { platform: 'linux', procRoot: proc, marker: '/data/jobs/j1' });
    expect(check(200)).toBe(true);
    expect(check(201)).toBe(false);
  });

  it("elsewhere, reads the process's command line and never trusts a pid alone", () => {
    const lines: Record<number, string> = { 300: '/Applications/Blender.app/Contents/MacOS/Blender -b /data/jobs/j1/scene/a.blend', 301: '/usr/bin/vim notes' };
    const commandLineOf = (pid: number) => lines[pid] ?? null;
    expect(isBlenderProcessAlive(300, { platform: 'darwin', commandLineOf, marker: '/data/jobs/j1' })).toBe(true);
    expect(isBlenderProcessAlive(301, { platform: 'darwin', commandLineOf })).toBe(false);
    expect(isBlenderProcessAlive(302, { platform: 'win32', commandLineOf })).toBe(false);
    expect(isBlenderProcessAlive(process.pid, { platform: 'darwin', commandLineOf: () => null })).toBe(false);
  });
});

describe.skipIf(process.platform === 'win32')('killProcessTree', () => {
  it('does nothing for a process that is already gone', async () => {
    await expect(killProcessTree(2 ** 22 + 12345)).resolves.toBeUndefined();
  });
});
