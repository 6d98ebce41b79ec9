import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index';
import { HostileServer, sendJson } from '../helpers/hostile-server';
import { RefusingKeychain } from '../helpers/refusing-keychain';
import { tempDir } from '../helpers/scene-files';
import { testDeps } from './helpers/test-deps';

describe('renderdrop login --store file, where no keychain answers', () => {
  let farm: HostileServer;
  beforeEach(async () => {
    farm = await HostileServer.start();
    farm.route('GET', '/api/external/v1/jobs', (req, res) =>
      req.headers.authorization === 'Bearer RJ-farm-key' ? sendJson(res, 200, { jobs: [], pagination: { page: 1, pageSize: 1, total: 0, totalPages: 1 } }) : sendJson(res, 401, { error: 'no' }),
    );
  });
  afterEach(() => farm.close());

  async function cli(configDir: string, args: string[], input = '') {
    const t = testDeps({ RENDERDROP_CONFIG_DIR: configDir }, { stdin: new PassThrough().end(input) });
    const code = await main(['node', 'renderdrop', ...args], { ...t.deps, secrets: new RefusingKeychain() });
    return { code, stdout: t.stdout(), stderr: t.stderr() };
  }

  it('refuses to fall back silently, keeps the key in a 0600 file when asked, uses it, and says where it lives', async () => {
    const dir = await tempDir('rd-cli-keyfile-');
    const refused = await cli(dir, ['login', '--profile', 'farm', '--base-url', farm.url], 'RJ-farm-key\n');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('The system keychain refused the key (AccessDenied), so it was not stored.');
    expect(refused.stderr).toContain('renderdrop login --store file');

    const stored = await cli(dir, ['login', '--profile', 'farm', '--store', 'file'], 'RJ-farm-key\n');
    expect(stored.code, stored.stderr).toBe(0);
    expect(stored.stdout).toContain(`The key is in ${join(dir, 'keys.json')} (not encrypted; only your user account can read it).`);
    expect((await stat(join(dir, 'keys.json'))).mode & 0o777).toBe(0o600);

    await cli(dir, ['profile', 'use', 'farm']);
    const jobs = await cli(dir, ['jobs', '--json']);
    expect(jobs.code, jobs.stderr).toBe(0);
    const list = await cli(dir, ['profile', 'list', '--json']);
    const profiles = JSON.parse(list.stdout).profiles as { name: string; key: string; keyStore: string | null }[];
    expect(profiles.find((p) => p.name === 'farm')).toMatchObject({ key: 'stored', keyStore: 'file' });
    expect((await cli(dir, ['profile', 'list'])).stdout).toMatch(/farm .* file \(keys\.json\)/);
    expect([refused, stored, jobs, list].every((run) => !`${run.stdout}${run.stderr}`.includes('RJ-farm-key'))).toBe(true);

    expect((await cli(dir, ['logout', '--profile', 'farm'])).stdout).toBe('Removed the stored API key of "farm".\n');
  });
});
