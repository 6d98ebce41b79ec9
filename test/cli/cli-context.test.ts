import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliContext } from '../../src/cli/context/cli-context';
import { HostileServer, sendJson } from '../helpers/hostile-server';
import { tempDir } from '../helpers/scene-files';
import { testDeps } from './helpers/test-deps';

function context() {
  const ctx = new CliContext(testDeps().deps);
  const notices: string[] = [];
  ctx.notice = (message) => notices.push(message);
  return { ctx, notices };
}

describe('CliContext retry notices', () => {
  it('says the server rate limits and when the request is retried, however long the wait', () => {
    const { ctx, notices } = context();
    ctx.reportRetry({ operation: 'GET /jobs/progress', attempt: 1, delayMs: 600_000, reason: 'rate-limited', status: 429 });
    ctx.reportRetry({ operation: 'GET /jobs/{id}', attempt: 2, delayMs: 4_000, reason: 'server-error', status: 503 });
    ctx.reportRetry({ operation: 'GET /jobs/{id}', attempt: 1, delayMs: 300, reason: 'network' });
    expect(notices).toEqual([
      'Rate limited by the server (429); retrying GET /jobs/progress in 10 min 00 s.',
      'The server failed (503); retrying GET /jobs/{id} in 4 s.',
    ]);
  });
});

describe('CliContext: which key a journal record gets', () => {
  let farm: HostileServer;
  beforeEach(async () => {
    farm = await HostileServer.start();
    farm.route('GET', '/v1/api/external/v1/jobs', (_req, res) => sendJson(res, 200, { jobs: [], pagination: { page: 1, pageSize: 1, total: 0, totalPages: 1 } }));
  });
  afterEach(() => farm.close());

  async function contextWithFarm() {
    const t = testDeps({ RENDERDROP_CONFIG_DIR: await tempDir('rd-cli-ctx-') });
    const ctx = new CliContext(t.deps);
    const profile = ctx.settings().addProfile({ name: 'Farm', baseUrl: `${farm.url}/v1`, kind: 'cloud' });
    await t.secrets.set(profile.id, 'RJ-farm-key');
    return { ctx, profile };
  }

  it('sends the stored key to the profile\'s server, however its address is spelled', async () => {
    const { ctx, profile } = await contextWithFarm();
    const client = await ctx.clientForRecord({ baseUrl: `${farm.url.replace('http://', 'HTTP://')}/v1//`, profileId: profile.id });
    await client.listJobs({ page: 1, pageSize: 1 });
    expect(farm.requests.map((r) => r.headers.authorization)).toEqual(['Bearer RJ-farm-key']);
  });

  it('never sends a stored key to another server', async () => {
    const { ctx, profile } = await contextWithFarm();
    const port = Number(new URL(farm.url).port);
    const elsewhere = [`https://127.0.0.1:${port}/v1`, `http://127.0.0.1:${port + 1}/v1`, `http://localhost:${port}/v1`, `http://127.0.0.1:${port}/v2`, `http://127.0.0.1:${port}@evil.net/v1`, 'not a url'];
    for (const baseUrl of elsewhere) {
      await expect(ctx.clientForRecord({ baseUrl, profileId: profile.id })).rejects.toMatchObject({ kind: 'config', code: 'no-api-key' });
    }
    expect(farm.requests).toEqual([]);
  });
});
