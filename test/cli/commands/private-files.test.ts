import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../src/cli/exit-codes';
import { readZip, writeTree } from '../../blend/helpers/scene-folder';
import { SyntheticBlend } from '../../blend/helpers/synthetic-blend';
import { FakeApi } from '../../helpers/fake-api-server';
import { parseSubmissions } from '../helpers/cli-setup';
import { runCliInProcess } from '../helpers/run-cli-in-process';

/** A scene from someone else: one texture of its own, and two absolute paths to private files of this computer. */
let root: string;
let home: string;
let scene: string;
let key: string;
const PASSWD = '/etc/passwd';
const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(512, 7)]);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rd-cli-private-'));
  home = join(root, 'home');
  key = join(home, '.ssh', 'id_ed25519');
  const blend = new SyntheticBlend();
  blend.addImage({ name: 'Grid', path: '//textures/grid.png' });
  blend.addImage({ name: 'Users', path: PASSWD });
  blend.addImage({ name: 'Key', path: key });
  await writeTree(root, { 'proj/shot.blend': blend.build(), 'proj/textures/grid.png': png, 'home/.ssh/id_ed25519': '-----BEGIN OPENSSH PRIVATE KEY-----\nfake\n' });
  scene = join(root, 'proj', 'shot.blend');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const env = () => ({ HOME: home });

describe('renderdrop pack: private files outside the project', () => {
  it('lists /etc/passwd and ~/.ssh/id_ed25519 apart and leaves them out of the bundle without --allow-outside', async () => {
    const out = join(root, 'held.zip');
    const run = await runCliInProcess(['pack', scene, '--out', out], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      ['These files outside the project look private and were not packed:', `  ${PASSWD} (image "Users": in /etc, a system folder)`, `  ${key} (image "Key": in .ssh, a folder of keys, passwords or settings)`].join('\n'),
    );
    expect(run.stdout).toContain('To send them, add --allow-outside <path>');
    expect(run.stdout).toMatch(new RegExp(`private\\s+image\\s+${PASSWD}\\s`));
    expect(run.stdout).not.toMatch(/^Missing \(/m);
    expect((await readZip(out)).map((e) => e.name)).toEqual(['shot.blend', 'textures/grid.png']);
  });

  it('packs them with --allow-outside (a file, and a folder holding the other) and lists them as allowed', async () => {
    const out = join(root, 'allowed.zip');
    const run = await runCliInProcess(['pack', scene, '--out', out, '--allow-outside', PASSWD, '--allow-outside', join(home, '.ssh')], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`These files outside the project look private and were packed, as --allow-outside allows:\n  ${PASSWD} (image "Users"`);
    expect(run.stdout).not.toContain('were not packed');
    const entries = await readZip(out);
    expect(entries.map((e) => e.name).sort()).toEqual(['_external/etc/passwd', `_external${key}`, 'shot.blend', 'textures/grid.png'].sort());
    expect(entries.find((e) => e.name === `_external${key}`)?.data.toString()).toContain('fake');
  });

  it('allows only what --allow-outside names', async () => {
    const out = join(root, 'one.zip');
    const run = await runCliInProcess(['pack', scene, '--out', out, '--json', '--allow-outside', key], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.privateFiles).toEqual([
      { path: PASSWD, why: 'in /etc, a system folder', kind: 'image', owner: 'Users', allowed: false },
      { path: key, why: 'in .ssh, a folder of keys, passwords or settings', kind: 'image', owner: 'Key', allowed: true },
    ]);
    expect(result.plan.entries.map((e: { source: string }) => e.source)).not.toContain(PASSWD);
    expect((await readZip(out)).map((e) => e.name)).toContain(`_external${key}`);
    expect((await readZip(out)).map((e) => e.name)).not.toContain('_external/etc/passwd');
  });
});

describe('renderdrop submit: private files outside the project', () => {
  let api: FakeApi | null = null;
  afterEach(async () => {
    await api?.server.close();
    api = null;
  });

  async function submit(...extra: string[]): Promise<{ code: number; stdout: string; stderr: string; bundle: string[] }> {
    api = await FakeApi.start({ keepBodies: true });
    const configDir = await mkdtemp(join(root, 'config-'));
    const run = await runCliInProcess(['submit', scene, '--yes', '--json', ...extra], {
      env: { ...env(), RENDERDROP_BASE_URL: api.server.url, RENDERDROP_API_KEY: 'RJ-private', RENDERDROP_CONFIG_DIR: configDir },
    });
    const [upload] = [...api.uploads.values()];
    const zip = join(configDir, 'uploaded.zip');
    await writeFile(zip, upload?.data ?? Buffer.alloc(0));
    return { ...run, bundle: upload?.data ? (await readZip(zip)).map((e) => e.name) : [] };
  }

  it('sends the bundle without them, listing them apart before the upload and in --json', async () => {
    const run = await submit();
    expect(run.code, run.stderr).toBe(EXIT.ok);
    expect(run.stderr).toContain(`shot.blend: these files outside the project look private and were not packed:\n  ${PASSWD} (image "Users": in /etc, a system folder)\n  ${key} (image "Key"`);
    expect(run.bundle).toEqual(['shot.blend', 'textures/grid.png']);
    const [result] = parseSubmissions(run.stdout);
    expect(result.privateFiles).toEqual([expect.objectContaining({ path: PASSWD, allowed: false }), expect.objectContaining({ path: key, allowed: false })]);
  });

  it('sends them with --allow-outside, listing them as allowed', async () => {
    const run = await submit('--allow-outside', PASSWD, '--allow-outside', home);
    expect(run.code, run.stderr).toBe(EXIT.ok);
    expect(run.stderr).toContain('shot.blend: these files outside the project look private and were packed, as --allow-outside allows:');
    expect(run.bundle.sort()).toEqual(['_external/etc/passwd', `_external${key}`, 'shot.blend', 'textures/grid.png'].sort());
    const [result] = parseSubmissions(run.stdout);
    expect(result.privateFiles).toEqual([expect.objectContaining({ path: PASSWD, allowed: true }), expect.objectContaining({ path: key, allowed: true })]);
  });
});
