import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KeyringSecretStore } from '../../src/core/secrets/keyring-secret-store';
import { readHandoverFile } from '../../src/host/handover';
import { localKeyAccount } from '../../src/host/profiles/local-node';
import { ROOT } from '../helpers/cli';
import { tempDir } from '../helpers/scene-files';

describe('renderdrop web', () => {
  it('prints a one-time link on 127.0.0.1, serves the app behind it, and stops on SIGTERM', async () => {
    const dir = await tempDir('rd-web-cli-');
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/run.ts'), 'web', '--port', '0'], {
      cwd: ROOT,
      env: { ...process.env, RENDERDROP_CONFIG_DIR: dir, RENDERDROP_RENDERER_DIR: await stubRenderer(dir) },
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
    try {
      const first = await fetch(link, { redirect: 'manual' });
      expect(first.status).toBe(200);
      const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
      const secret = /<meta name="renderdrop-session" content="([\w-]+)">/.exec(await first.text())![1]!;
      const base = new URL(link).origin;
      const headers = { cookie, 'content-type': 'application/json' };
      expect((await fetch(`${base}/api/call/app.getState`, { method: 'POST', headers, body: '{}' })).status).toBe(401);
      const state = await fetch(`${base}/api/call/app.getState`, { method: 'POST', headers: { ...headers, 'x-renderdrop-session': secret }, body: '{}' });
      const body = (await state.json()) as { ok: boolean; value: { configDir: string; keyStore: string } };
      expect(body).toMatchObject({ ok: true, value: { configDir: dir, shell: 'web' } });
      expect((await fetch(link, { redirect: 'manual' })).status).toBe(401);
      expect(await readHandoverFile(dir)).toMatchObject({ version: 1, pid: child.pid });
    } finally {
      child.kill('SIGTERM');
    }
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(0);
    expect(await readHandoverFile(dir)).toBeNull();
    await new KeyringSecretStore().delete(localKeyAccount(join(dir, 'node'))).catch(() => false);
  });
});

/** A built UI of one page, so the test does not depend on `npm run build`. */
async function stubRenderer(dir: string): Promise<string> {
  const ui = join(dir, 'ui');
  await mkdir(ui, { recursive: true });
  await writeFile(join(ui, 'index.html'), '<!doctype html><html><head><title>Renderdrop</title></head></html>');
  return ui;
}
