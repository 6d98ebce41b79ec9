import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./keyring-roundtrip.script.ts', import.meta.url));
const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);

if (missing.length > 0 && process.env.CI) {
  throw new Error(`The keyring round trip needs ${missing.join(' and ')} (install dbus and gnome-keyring); CI must not skip it.`);
}

describe.skipIf(missing.length > 0)(`KeyringSecretStore against a real Secret Service${missing.length > 0 ? ` (skipped: ${missing.join(', ')} not installed)` : ''}`, () => {
  it('sets, reads, replaces and deletes a key', () => {
    const inner = `printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec "${process.execPath}" --import tsx "${script}"`;
    const run = spawnSync('dbus-run-session', ['--', 'sh', '-c', inner], { encoding: 'utf8', timeout: 60_000, cwd: fileURLToPath(new URL('../../..', import.meta.url)) });
    const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
    expect(line, `no result; stderr: ${run.stderr}`).toBeDefined();
    expect(JSON.parse(line!.slice('RESULT '.length))).toEqual({
      available: true,
      before: null,
      afterSet: 'RJ-roundtrip-key',
      afterRotate: 'RJ-rotated-key',
      deleted: true,
      afterDelete: null,
      deletedAgain: false,
    });
  });
});
