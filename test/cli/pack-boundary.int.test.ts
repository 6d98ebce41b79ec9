import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chown, link, mkdir, mkdtemp, readFile, readdir, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBlender } from '../../src/render-node/blender/run-blender';
import { readZip } from '../blend/helpers/scene-folder';
import { requireBlender } from '../helpers/blender';
import { ROOT } from '../helpers/cli';
import { FakeApi } from '../helpers/fake-api-server';
import { requireStrace } from '../helpers/strace';

/**
 * The hostile scene of the security probe, packed and submitted by a second local account (`nobody`):
 * a fluid cache at a folder of documents, an ocean cache in a browser's profile, a hard link to a key,
 * a shell history and a file in /run/secrets. Switching user needs root: skipped without it on a
 * developer machine, a failure in CI (which runs as root). Everything made outside the test's own
 * folder (a file in /run/secrets, and the folder when there was none) is removed afterwards.
 */
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
if (!isRoot && process.env.CI) throw new Error('The packing boundary test runs the CLI as the user nobody, which needs root; CI runs as root.');
const blenderPath = requireBlender();
const strace = requireStrace();

/** Runs `renderdrop <args>` as nobody, optionally under strace (directory reads and opens logged to `traceLog`). */
function asNobody(args: string[], env: NodeJS.ProcessEnv, traceLog?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = [process.execPath, '--import', 'tsx', join(ROOT, 'src/cli/run.ts'), ...args];
  const asUser = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', ...cli];
  const command = traceLog ? [strace!, '-f', '-qq', '-e', 'trace=openat,open', '-o', traceLog, ...asUser] : asUser;
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, env: { PATH: process.env.PATH, TMPDIR: env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function chownTree(path: string): Promise<void> {
  await chown(path, NOBODY, NOBODY);
  if (!(await stat(path)).isDirectory()) return;
  for (const name of await readdir(path)) await chownTree(join(path, name));
}

describe.skipIf(!isRoot || !blenderPath || !strace)('the project is the boundary: a hostile scene packed by another local user', () => {
  let work: string;
  let home: string;
  let scene: string;
  let documents: string;
  let profile: string;
  let secret: string;
  let madeSecrets = false;
  let api: FakeApi | null = null;
  const env = () => ({ HOME: home, RENDERDROP_CONFIG_DIR: join(home, '.config', 'renderdrop') });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-boundary-'));
    home = join(work, 'home');
    documents = join(home, 'Documents');
    profile = join(home, 'snap', 'chromium', 'common', 'chromium', 'Default');
    await mkdir(documents, { recursive: true });
    await mkdir(profile, { recursive: true });
    await mkdir(join(home, '.ssh'));
    await mkdir(join(home, 'proj', 'textures'), { recursive: true });
    await writeFile(join(documents, 'tax-return-2024.pdf'), 'income');
    await writeFile(join(documents, 'diary.txt'), 'dear diary');
    await writeFile(join(profile, 'Login Data'), 'saved passwords');
    await writeFile(join(home, '.ssh', 'id_ed25519'), '-----BEGIN OPENSSH PRIVATE KEY-----\nfake\n');
    await writeFile(join(home, '.bash_history'), 'mysql -p hunter2\n');
    await writeFile(join(home, 'proj', 'textures', 'grid.png'), 'png');
    await link(join(home, '.ssh', 'id_ed25519'), join(home, 'proj', 'textures', 'key.png'));
    madeSecrets = !(await stat('/run/secrets').catch(() => null));
    if (madeSecrets) await mkdir('/run/secrets');
    secret = join('/run/secrets', `rd-test-db-password-${randomBytes(4).toString('hex')}`);
    await writeFile(secret, 'hunter2', { mode: 0o644 });
    scene = join(home, 'proj', 'hostile.blend');
    const script = join(ROOT, 'test', 'fixtures', 'blender', 'make-hostile-scene.py');
    const made = await runBlender({ blenderPath: blenderPath!, args: ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python', script, '--', scene, documents, profile, join(home, '.bash_history'), secret], timeoutMs: 120_000 });
    expect(made.exitCode, made.stderr).toBe(0);
    await chownTree(home);
    await chown(work, NOBODY, NOBODY);
  });
  afterEach(async () => {
    await api?.server.close();
    api = null;
  });
  afterAll(async () => {
    if (secret) await rm(secret, { force: true });
    if (madeSecrets) await rmdir('/run/secrets').catch(() => undefined);
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('packs only the project: each held file and folder is named, and the folders outside are never read', async () => {
    const out = join(home, 'held.zip');
    const log = join(work, 'strace.log');
    const run = await asNobody(['pack', scene, '--out', out, '--json'], env(), log);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.privateFiles.map((f: { path: string; held: string; folder?: boolean; allowed: boolean }) => [f.path, f.held, f.folder ?? false, f.allowed])).toEqual(
      [
        [secret, 'secret', false, false],
        [join(home, '.bash_history'), 'secret', false, false],
        [documents, 'outside', true, false],
        [join(home, 'proj', 'textures', 'key.png'), 'links', false, false],
        [profile, 'outside', true, false],
      ].sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1)),
    );
    expect((await readZip(out)).map((e) => e.name)).toEqual(['hostile.blend', 'textures/grid.png']);
    const opened = await readFile(log, 'utf8');
    expect(opened, 'the log records what the CLI opens').toMatch(new RegExp(`"${scene}"`));
    expect(opened).not.toMatch(new RegExp(`"${documents}[^"]*"[^\\n]*O_DIRECTORY`));
    expect(opened).not.toMatch(new RegExp(`"${profile}[^"]*"[^\\n]*O_DIRECTORY`));
    expect(opened).not.toMatch(/tax-return|diary\.txt|Login Data/);
  });

  it('sends to a farm what --allow-outside allows for one folder, and only that folder', async () => {
    api = await FakeApi.start({ keepBodies: true });
    const run = await asNobody(['submit', scene, '--yes', '--allow-outside', documents], { ...env(), RENDERDROP_BASE_URL: api.server.url, RENDERDROP_API_KEY: 'RJ-boundary' });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout + run.stderr).toContain(`hostile.blend: these files were held at the edge of the project, ${join(home, 'proj')}, and not packed:`);
    const [upload] = [...api.uploads.values()];
    const zip = join(work, 'uploaded.zip');
    await writeFile(zip, upload!.data!);
    const names = (await readZip(zip)).map((e) => e.name);
    const fromDocuments = `_external${documents}/`;
    expect(names.filter((name) => !name.startsWith(fromDocuments)).sort()).toEqual(['hostile.blend', 'textures/grid.png']);
    expect(names).toEqual(expect.arrayContaining([`${fromDocuments}diary.txt`, `${fromDocuments}tax-return-2024.pdf`]));
  });
});
