import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli';
import { startTestNode, type TestNode } from '../helpers/node';

const script = fileURLToPath(new URL('./helpers/login-scenario.script.ts', import.meta.url));
const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);

if (missing.length > 0 && process.env.CI) {
  throw new Error(`The login tests need ${missing.join(' and ')} (install dbus and gnome-keyring); CI must not skip them.`);
}

/** Runs the login scenario in a private D-Bus session with a fresh, unlocked gnome-keyring in a temporary home. */
async function runScenario(env: NodeJS.ProcessEnv): Promise<{ result: any; stderr: string }> {
  const inner = `printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec "${process.execPath}" --import tsx "${script}"`;
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', inner], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  await new Promise((resolve) => child.on('close', resolve));
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
  return { result: line ? JSON.parse(line.slice('RESULT '.length)) : null, stderr };
}

describe.skipIf(missing.length > 0)(`renderdrop login with the system keychain${missing.length > 0 ? ` (skipped: ${missing.join(', ')} not installed)` : ''}`, () => {
  let t: TestNode;

  beforeAll(async () => {
    t = await startTestNode({ blender: null });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('checks the key before storing it, uses the stored key, and forgets it on logout', async () => {
    const home = await mkdtemp(join(tmpdir(), 'rd-cli-home-'));
    const { result, stderr } = await runScenario({
      HOME: home,
      XDG_DATA_HOME: join(home, 'data'),
      XDG_CONFIG_HOME: join(home, 'config'),
      RENDERDROP_CONFIG_DIR: join(home, 'renderdrop'),
      NODE_URL: t.url,
      NODE_KEY: t.key,
    });
    expect(result, `no result; stderr: ${stderr}`).not.toBeNull();
    expect(result.error).toBeUndefined();
    expect(result.newProfileWrongKey).toEqual({ code: 1, rejected: true, profile: null });
    expect(result.wrongKey).toEqual({ code: 1, nothingStored: true, stored: null });
    expect(result.emptyKey).toEqual({ code: 2 });
    expect(result.rightKey).toMatchObject({ code: 0, storedMatches: true });
    expect(result.rightKey.stdout).toContain('Logged in to "farm"');
    expect(result.jobsWithStoredKey).toEqual({ code: 0, total: 0 });
    expect(result.profileList).toBe(`* farm ${t.url} local keychain`);
    expect(result.logout).toEqual({ code: 0, stdout: 'Removed the stored API key of "farm".', stored: null });
    expect(result.afterLogout).toEqual({ code: 1, asksForLogin: true });
    expect(result.keyNeverPrinted).toBe(true);
  });
});
