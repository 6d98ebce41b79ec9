import { afterEach, describe, expect, it } from 'vitest';
import { startHost, type HostHarness } from './host-harness';
import { freePort } from '../helpers/redis';
import { TEST_WORKER_SECRET } from '../helpers/worker-secret';

const opened: HostHarness[] = [];
async function host(options: Parameters<typeof startHost>[0] = {}): Promise<HostHarness> {
  const h = await startHost(options);
  opened.push(h);
  return h;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((h) => h.close()));
});

describe('host: the render workers of "This computer"', () => {
  it('says the app\'s node renders with its own Blender when no Redis is set', async () => {
    const h = await host();
    expect(await h.value('app.renderWorkers', {})).toEqual({ mode: 'embedded', renders: 1, threads: null, tags: [] });
  });

  it('has none to list when the app runs no node', async () => {
    const h = await host({ localNode: false });
    expect(await h.value('app.renderWorkers', {})).toBeNull();
  });

  it('says in plain words that the node did not start when RENDERDROP_REDIS_URL does not answer', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const h = await host({ env: { RENDERDROP_REDIS_URL: url, RENDERDROP_WORKER_SECRET: TEST_WORKER_SECRET } });
    await h.host.ready();
    expect(await h.value('app.renderWorkers', {})).toBeNull();
    const test = await h.value('profiles.testConnection', { profileId: 'this-computer' });
    expect(test).toMatchObject({ ok: false });
    expect(test.message).toBe(`The render node on this computer did not start: Redis at ${url} is unreachable (connection refused): start it, or check its address and password.`);
  });
});
