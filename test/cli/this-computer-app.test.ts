import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index';
import { HostileServer } from '../helpers/hostile-server';
import { startHost, type HostHarness } from '../host/host-harness';
import { testDeps } from './helpers/test-deps';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => undefined);
  cleanup.length = 0;
});

async function cli(configDir: string, args: string[], env: Record<string, string> = {}) {
  const t = testDeps({ RENDERDROP_CONFIG_DIR: configDir, ...env }, { stdin: new PassThrough().end() });
  const code = await main(['node', 'renderdrop', ...args], t.deps);
  return { code, stdout: t.stdout(), stderr: t.stderr() };
}

describe('"This computer" for the renderdrop command while the app runs', () => {
  it('reaches the app\'s node with no key typed, also when the usual port was taken, and says plainly when the app has stopped', async () => {
    const squatter = await HostileServer.start();
    cleanup.push(() => squatter.close());
    const h: HostHarness = await startHost({ localNodePort: Number(new URL(squatter.url).port) });
    cleanup.push(() => h.close());
    const nodeUrl = h.host.localNodeUrl!;
    expect(nodeUrl).not.toBe(squatter.url);
    const file = join(h.dir, 'node', 'local-client.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const jobs = await cli(h.dir, ['jobs', '--json']);
    expect(jobs.code, jobs.stderr).toBe(0);
    expect(JSON.parse(jobs.stdout).pagination.total).toBe(0);
    expect(squatter.requests).toEqual([]);
    const listed = JSON.parse((await cli(h.dir, ['profile', 'list', '--json'])).stdout).profiles as { id: string; key: string; keyStore: string | null }[];
    expect(listed.find((p) => p.id === 'this-computer')).toMatchObject({ key: 'stored', keyStore: 'app' });

    const elsewhere = await cli(h.dir, ['jobs', '--json'], { RENDERDROP_BASE_URL: squatter.url });
    expect(elsewhere.code).not.toBe(0);
    expect(squatter.requests).toEqual([]);

    await h.host.close();
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    const stopped = await cli(h.dir, ['jobs']);
    expect(stopped.code).not.toBe(0);
    expect(stopped.stderr).toContain('The Renderdrop app is not running, and no key is stored for a render node at http://127.0.0.1:8787.');
  });
});
