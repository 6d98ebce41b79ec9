import { link, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../src/cli/exit-codes';
import { readZip, writeTree } from '../../blend/helpers/scene-folder';
import { SyntheticBlend } from '../../blend/helpers/synthetic-blend';
import { FakeApi } from '../../helpers/fake-api-server';
import { parseSubmissions } from '../helpers/cli-setup';
import { runCliInProcess } from '../helpers/run-cli-in-process';

/**
 * A scene from someone else: one texture of its own, absolute paths to a system file, a key, a shell
 * history and a texture beside the project, a numbered sequence in a folder of documents, and a
 * texture inside the project that is a hard link to the key. A studio layout beside it: a shot below a
 * show whose textures sit in the show's shared asset folder.
 */
let root: string;
let home: string;
let proj: string;
let scene: string;
let key: string;
let history: string;
let shot: string;
const PASSWD = '/etc/passwd';
const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(512, 7)]);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rd-cli-private-'));
  home = join(root, 'home');
  proj = join(root, 'proj');
  key = join(home, '.ssh', 'id_ed25519');
  history = join(home, '.bash_history');
  const blend = new SyntheticBlend();
  blend.addImage({ name: 'Grid', path: '//textures/grid.png' });
  blend.addImage({ name: 'Users', path: PASSWD });
  blend.addImage({ name: 'Key', path: key });
  blend.addImage({ name: 'History', path: history });
  blend.addImage({ name: 'Shared', path: join(root, 'shared', 'wood.png') });
  blend.addImage({ name: 'Frames', path: join(root, 'Documents', 'frame_0001.png'), source: 2 });
  blend.addImage({ name: 'Hard', path: '//textures/hard.png' });
  const studio = new SyntheticBlend();
  studio.addImage({ name: 'Wall', path: '//../../assets/wall.png' });
  studio.addImage({ name: 'Own', path: '//plate.png' });
  await writeTree(root, {
    'proj/shot.blend': blend.build(),
    'proj/textures/grid.png': png,
    'home/.ssh/id_ed25519': '-----BEGIN OPENSSH PRIVATE KEY-----\nfake\n',
    'home/.bash_history': 'mysql -p hunter2\n',
    'shared/wood.png': png,
    'Documents/frame_0001.png': png,
    'Documents/frame_0002.png': png,
    'Documents/tax-return.pdf': 'private',
    'show/shots/sh010/sh010.blend': studio.build(),
    'show/shots/sh010/plate.png': png,
    'show/assets/wall.png': png,
  });
  await link(key, join(proj, 'textures', 'hard.png'));
  scene = join(proj, 'shot.blend');
  shot = join(root, 'show', 'shots', 'sh010', 'sh010.blend');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const env = () => ({ HOME: home, RENDERDROP_CONFIG_DIR: join(root, 'config') });

describe('renderdrop pack: the project is the boundary', () => {
  it('packs nothing from outside the project, nor a secret or hard-linked file inside it, and names each by folder', async () => {
    const out = join(root, 'held.zip');
    const run = await runCliInProcess(['pack', scene, '--out', out], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      [
        `These files were held at the edge of the project, ${proj}, and not packed:`,
        '  /etc/',
        '    passwd (image "Users": outside the project, in /etc, a system folder)',
        `  ${join(root, 'Documents')}/ (image "Frames": a folder outside the project; it was not read)`,
        `  ${home}/`,
        '    .bash_history (image "History": outside the project, named like a key, password, token or history file)',
        `  ${join(home, '.ssh')}/`,
        '    id_ed25519 (image "Key": outside the project, in .ssh, a folder of keys, passwords, settings or a browser\'s profile)',
        `  ${join(proj, 'textures')}/`,
        '    hard.png (image "Hard": it has 2 names on this disk (hard links), and another may lie anywhere)',
        `  ${join(root, 'shared')}/`,
        '    wood.png (image "Shared": outside the project)',
      ].join('\n'),
    );
    expect(run.stdout).toContain('To send them, add --allow-outside <path>');
    expect(run.stdout).toMatch(new RegExp(`outside\\s+image\\s+${join(root, 'Documents', 'frame_0001.png')}\\s`));
    expect(run.stdout).not.toMatch(/^Missing \(/m);
    expect((await readZip(out)).map((e) => e.name)).toEqual(['shot.blend', 'textures/grid.png']);
  });

  it('with --allow-outside for one folder, only that folder travels; a folder around a secret place lets nothing secret through', async () => {
    const out = join(root, 'one.zip');
    const run = await runCliInProcess(['pack', scene, '--out', out, '--json', '--allow-outside', join(root, 'Documents'), '--allow-outside', home], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    const shown = result.privateFiles.map((f: { path: string; held: string; allowed: boolean }) => [f.path, f.held, f.allowed]);
    expect(shown).toEqual([
      [PASSWD, 'secret', false],
      [join(root, 'Documents', 'frame_0001.png'), 'outside', true],
      [join(root, 'Documents', 'frame_0002.png'), 'outside', true],
      [history, 'secret', false],
      [key, 'secret', false],
      [join(proj, 'textures', 'hard.png'), 'links', false],
      [join(root, 'shared', 'wood.png'), 'outside', false],
    ]);
    const names = (await readZip(out)).map((e) => e.name);
    expect(names).toEqual(['shot.blend', `_external${join(root, 'Documents', 'frame_0001.png')}`, `_external${join(root, 'Documents', 'frame_0002.png')}`, 'textures/grid.png']);
    expect(run.stdout).not.toContain('tax-return');
  });

  it('lets a secret file through only when --allow-outside names its place, and a hard link only by its own path', async () => {
    const out = join(root, 'secret.zip');
    const run = await runCliInProcess(['pack', scene, '--out', out, '--allow-outside', join(home, '.ssh'), '--allow-outside', join(proj, 'textures', 'hard.png')], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`These files held at the edge of the project, ${proj}, were packed, as --allow-outside allows:\n  ${join(home, '.ssh')}/\n    id_ed25519 (image "Key"`);
    const entries = await readZip(out);
    expect(entries.map((e) => e.name).sort()).toEqual(['_external' + key, 'shot.blend', 'textures/grid.png', 'textures/hard.png'].sort());
    expect(entries.find((e) => e.name === `_external${key}`)?.data.toString()).toContain('fake');
  });
});

describe('renderdrop submit: the project is the boundary', () => {
  let api: FakeApi | null = null;
  afterEach(async () => {
    await api?.server.close();
    api = null;
  });

  async function submit(file: string, ...extra: string[]): Promise<{ code: number; stdout: string; stderr: string; bundle: string[] }> {
    api = await FakeApi.start({ keepBodies: true });
    const run = await runCliInProcess(['submit', file, '--yes', '--json', '--new', ...extra], {
      env: { ...env(), RENDERDROP_BASE_URL: api.server.url, RENDERDROP_API_KEY: 'RJ-private' },
    });
    const [upload] = [...api.uploads.values()];
    const zip = join(root, `uploaded-${Date.now()}.zip`);
    await writeFile(zip, upload?.data ?? Buffer.alloc(0));
    return { ...run, bundle: upload?.data ? (await readZip(zip)).map((e) => e.name) : [] };
  }

  it('sends the bundle without them, listing them apart before the upload and in --json', async () => {
    const run = await submit(scene);
    expect(run.code, run.stderr).toBe(EXIT.ok);
    expect(run.stderr).toContain(`shot.blend: these files were held at the edge of the project, ${proj}, and not packed:\n  /etc/\n    passwd (image "Users"`);
    expect(run.stderr).toContain(`\n  ${join(root, 'Documents')}/ (image "Frames": a folder outside the project; it was not read)\n`);
    expect(run.bundle).toEqual(['shot.blend', 'textures/grid.png']);
    const [result] = parseSubmissions(run.stdout);
    expect(result.privateFiles.map((f: { path: string; allowed: boolean }) => [f.path, f.allowed])).toContainEqual([key, false]);
    expect(result.privateFiles.every((f: { allowed: boolean }) => !f.allowed)).toBe(true);
  });

  it('packs a studio shot whole with --project at the show, with no question, and remembers the show for the shot', async () => {
    const held = await submit(shot);
    expect(held.bundle).toEqual(['sh010.blend', 'plate.png']);
    expect(held.stderr).toContain('wall.png (image "Wall": outside the project)');
    const run = await submit(shot, '--project', join(root, 'show'));
    expect(run.code, run.stderr).toBe(EXIT.ok);
    expect(run.stderr).toContain(`sh010.blend: the project is ${join(root, 'show')} (as --project says; remembered for this scene).`);
    expect(run.stderr).not.toContain('held at the edge');
    expect(run.bundle.sort()).toEqual([`_external${join(root, 'show', 'assets', 'wall.png')}`, 'plate.png', 'sh010.blend'].sort());
    const again = await submit(shot);
    expect(again.stderr).toContain(`sh010.blend: the project is ${join(root, 'show')} (remembered for this scene; --project <dir> changes it).`);
    expect(again.bundle).toHaveLength(3);
    const refused = await runCliInProcess(['pack', shot, '--project', proj], { env: env() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--project ${proj} does not hold ${shot}`);
  });
});
