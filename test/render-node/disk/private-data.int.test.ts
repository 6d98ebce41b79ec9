import { spawnSync } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServeProcess } from '../../helpers/cli';

/**
 * A second local account (`nobody`) against the data folder a node made. Switching user needs root:
 * these tests are skipped without it on a developer machine, and fail in CI (which runs as root).
 */
const isRoot = process.getuid?.() === 0;
if (!isRoot && process.env.CI) throw new Error('The data-folder privacy tests switch to the user nobody, which needs root; CI runs as root.');

/** Runs a command as `nobody` (no groups); its exit code and error output. */
function asNobody(...command: string[]): { code: number | null; stderr: string } {
  const run = spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', ...command], { encoding: 'utf8' });
  return { code: run.status, stderr: run.stderr };
}

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe.skipIf(!isRoot)('a node\'s data folder is its own (checked as the user nobody)', () => {
  let root: string;
  let umask: number;
  beforeAll(async () => {
    umask = process.umask(0o022);
    root = await mkdtemp(join(tmpdir(), 'rd-private-data-'));
    await chmod(root, 0o755);
  });
  afterAll(async () => {
    process.umask(umask);
    await rm(root, { recursive: true, force: true });
  });

  it('node serve --data NEW with umask 022: nobody can list, read or enter anything of it', async () => {
    const data = join(root, 'new', 'data');
    const node = await startServeProcess(['--port', '0', '--data', data]);
    try {
      const key = await runCli(['node', 'keys', 'create', '--data', join(root, 'keys-only'), '--name', 'x']);
      expect(key.code, key.stderr).toBe(0);
      expect(asNobody('ls', root).code, 'nobody can see the folder around it').toBe(0);
      for (const folder of [data, join(root, 'keys-only')]) {
        expect(await modeOf(folder)).toBe(0o700);
        const names = await readdir(folder);
        expect(names).toEqual(expect.arrayContaining(['node.sqlite', 'uploads', 'jobs'].filter((n) => folder === data || n === 'node.sqlite')));
        expect(asNobody('ls', folder).code, `ls ${folder}`).not.toBe(0);
        for (const name of names) expect(asNobody('cat', join(folder, name)).code, name).not.toBe(0);
      }
      expect(await modeOf(join(data, 'node.sqlite'))).toBe(0o600);
      expect(await modeOf(join(data, 'signing-secret'))).toBe(0o600);
    } finally {
      node.child.kill('SIGTERM');
    }
  });

  it('a data folder others can read is made private at start, in one line', async () => {
    const data = join(root, 'open');
    await mkdir(data);
    await chmod(data, 0o755);
    await writeFile(join(data, 'note.txt'), 'left by hand');
    const node = await startServeProcess(['--port', '0', '--data', data]);
    try {
      expect(node.output()).toContain(`The data folder ${data} could be read by other users of this computer (mode 755); Renderdrop made it private (700).`);
      expect(await modeOf(data)).toBe(0o700);
      expect(asNobody('cat', join(data, 'note.txt')).code).not.toBe(0);
    } finally {
      node.child.kill('SIGTERM');
    }
  });

  it('a data folder of another user that others can read is refused in one line, and left as it was', async () => {
    const data = join(root, 'theirs');
    await mkdir(data);
    await chown(data, 65534, 65534);
    await chmod(data, 0o755);
    await expect(startServeProcess(['--port', '0', '--data', data])).rejects.toThrow(
      `The data folder ${data} can be read by other users of this computer (mode 755) and Renderdrop does not change that (it belongs to another user)`,
    );
    expect(await modeOf(data)).toBe(0o755);
  });
});
