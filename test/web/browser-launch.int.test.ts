import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KeyringSecretStore } from '../../src/core/secrets/keyring-secret-store';
import { localKeyAccount } from '../../src/host/profiles/local-node';
import { ROOT } from '../helpers/cli';
import { tempDir } from '../helpers/scene-files';

/** The link a launch page sends the browser to. */
function linkIn(page: string): string {
  const match = /url=([^"]+)"/.exec(page);
  if (!match) throw new Error(`no redirect in:\n${page}`);
  return match[1]!.replace(/&amp;/g, '&');
}

describe('the launch page of `renderdrop web --open`, with a stand-in xdg-open', () => {
  it('never puts the token on the browser opener\'s command line (the real command, with a stand-in xdg-open)', async () => {
    const dir = await tempDir('rd-web-open-');
    const bin = await tempDir('rd-web-open-bin-');
    const record = join(dir, 'opened.txt');
    const opener = join(bin, process.platform === 'darwin' ? 'open' : 'xdg-open');
    await writeFile(opener, `#!/bin/sh\ntr '\\0' ' ' < /proc/$$/cmdline > "${record}.tmp" 2>/dev/null || printf '%s ' "$0" "$@" > "${record}.tmp"\ncp "$1" "${record}.page"\nmv "${record}.tmp" "${record}"\n`);
    await chmod(opener, 0o755);
    const ui = join(dir, 'ui');
    await mkdir(ui);
    await writeFile(join(ui, 'index.html'), '<!doctype html><html><head><title>Renderdrop</title></head></html>');
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/run.ts'), 'web', '--port', '0', '--open'], {
      cwd: ROOT,
      env: { ...process.env, RENDERDROP_CONFIG_DIR: dir, PATH: `${bin}:${process.env.PATH ?? ''}`, XDG_RUNTIME_DIR: dir, RENDERDROP_RENDERER_DIR: ui },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    try {
      const commandLine = await waitFor(async () => readFile(record, 'utf8').catch(() => null), () => `the opener never ran:\n${out}`);
      const link = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out)![1]!;
      const token = new URL(link).searchParams.get('token')!;
      expect(commandLine).toContain('open-renderdrop.html');
      expect(commandLine).not.toContain(token);
      const page = await readFile(`${record}.page`, 'utf8');
      expect(linkIn(page)).toBe(link);
      const first = await fetch(linkIn(page), { redirect: 'manual' });
      expect(first.status).toBe(200);
      const launch = commandLine.trim().split(/\s+/).find((part) => part.endsWith('open-renderdrop.html'))!;
      await waitFor(async () => (await stat(launch).catch(() => null)) === null || null, () => 'the launch page was not deleted after the token was traded');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)))).toBe(0);
    await new KeyringSecretStore().delete(localKeyAccount(join(dir, 'node'))).catch(() => false);
  });
});

async function waitFor<T>(check: () => Promise<T | null>, why: () => string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(why());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
