import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli';
import { tempDir } from '../helpers/scene-files';

/** `renderdrop web` with no Secret Service (the keychain refuses to store, as a locked one answers "AccessDenied"). */
async function startWeb(dir: string) {
  const ui = join(dir, 'ui');
  await mkdir(ui, { recursive: true });
  await writeFile(join(ui, 'index.html'), '<!doctype html><html><head><title>Renderdrop</title></head></html>');
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/run.ts'), 'web', '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, HOME: dir, RENDERDROP_CONFIG_DIR: join(dir, 'config'), RENDERDROP_RENDERER_DIR: ui, DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dir, 'no-bus')}`, RENDERDROP_API_KEY: '', BLENDER_PATH: join(dir, 'no-blender') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const link = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no link printed:\n${out}`)), 30_000);
    child.stdout.on('data', () => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  const first = await fetch(link, { redirect: 'manual' });
  const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
  const secret = /<meta name="renderdrop-session" content="([\w-]+)">/.exec(await first.text())![1]!;
  const base = new URL(link).origin;
  const call = async (name: string, body: object) => {
    const answer = await fetch(`${base}/api/call/${name}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json', 'x-renderdrop-session': secret }, body: JSON.stringify(body) });
    return (await answer.json()) as { ok: boolean; value?: any; error?: { code: string; message: string } };
  };
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.on('exit', resolve));
  };
  return { call, stop };
}

describe('renderdrop web without a Secret Service', () => {
  it('keeps a farm\'s key in the key file by choice, and has it again after a restart', async () => {
    const dir = await tempDir('rd-web-keyfile-');
    const farm = { name: 'Studio farm', baseUrl: 'http://127.0.0.1:9', apiKey: 'RJ-studio-key-123' };
    const first = await startWeb(dir);
    try {
      const refused = await first.call('profiles.add', farm);
      expect(refused.error).toMatchObject({ code: 'key-not-stored' });
      expect(refused.error!.message).toContain('keep the key in a file in the settings folder that only your user account can read');
      const added = await first.call('profiles.add', { ...farm, keyPlace: 'file' });
      expect(added.value).toMatchObject({ hasKey: true, keyStorage: 'file' });
    } finally {
      await first.stop();
    }
    expect((await stat(join(dir, 'config', 'keys.json'))).mode & 0o777).toBe(0o600);
    const again = await startWeb(dir);
    try {
      const state = await again.call('app.getState', {});
      expect(state.value.profiles.find((p: { name: string }) => p.name === 'Studio farm')).toMatchObject({ hasKey: true, keyStorage: 'file' });
    } finally {
      await again.stop();
    }
  });
});
