import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KeyringSecretStore } from '../../../src/core/secrets/keyring-secret-store';
import { spawnCli } from './spawn-cli';

/**
 * Runs inside a D-Bus session with an unlocked gnome-keyring: logs in with a wrong and a right key,
 * uses the stored key, logs out. Prints one line `RESULT {json}`. Needs NODE_URL, NODE_KEY and
 * RENDERDROP_CONFIG_DIR in the environment.
 */
const url = process.env.NODE_URL!;
const key = process.env.NODE_KEY!;
const env = { RENDERDROP_API_KEY: '', RENDERDROP_BASE_URL: '' };
const store = new KeyringSecretStore();
const results: Record<string, unknown> = {};
const outputs: string[] = [];

async function cli(args: string[], input = '') {
  const run = await spawnCli(args, env, { input }).exited;
  outputs.push(run.stdout, run.stderr);
  return run;
}

async function profileId(name: string): Promise<string | null> {
  const settings = JSON.parse(await readFile(join(process.env.RENDERDROP_CONFIG_DIR!, 'config.json'), 'utf8'));
  return settings.profiles.find((p: { name: string }) => p.name === name)?.id ?? null;
}

try {
  const created = await cli(['login', '--profile', 'farm', '--base-url', url], 'RJ-wrong-key\n');
  results.newProfileWrongKey = { code: created.code, rejected: created.stderr.includes('rejected this API key'), profile: await profileId('farm') };

  await cli(['profile', 'add', 'farm', '--base-url', url, '--use']);
  const farm = (await profileId('farm'))!;
  const wrong = await cli(['login'], 'RJ-wrong-key\n');
  results.wrongKey = { code: wrong.code, nothingStored: wrong.stderr.includes('Nothing was stored'), stored: await store.get(farm) };

  const empty = await cli(['login'], '\n');
  results.emptyKey = { code: empty.code };

  const right = await cli(['login'], `${key}\n`);
  results.rightKey = { code: right.code, stdout: right.stdout.trim(), storedMatches: (await store.get(farm)) === key };

  const jobs = await cli(['jobs', '--json']);
  results.jobsWithStoredKey = { code: jobs.code, total: jobs.code === 0 ? JSON.parse(jobs.stdout).pagination.total : null };

  const list = await cli(['profile', 'list']);
  results.profileList = list.stdout.split('\n').find((line) => line.includes('farm'))?.replace(/\s+/g, ' ').trim();

  const logout = await cli(['logout']);
  results.logout = { code: logout.code, stdout: logout.stdout.trim(), stored: await store.get(farm) };

  const after = await cli(['jobs']);
  results.afterLogout = { code: after.code, asksForLogin: after.stderr.includes('renderdrop login') };
  results.keyNeverPrinted = outputs.every((text) => !text.includes(key));
} catch (error) {
  results.error = error instanceof Error ? error.stack : String(error);
}
process.stdout.write(`RESULT ${JSON.stringify(results)}\n`);
