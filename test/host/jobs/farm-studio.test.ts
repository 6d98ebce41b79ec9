import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api';
import { ConfigError } from '../../../src/core/errors';
import { FarmStudio } from '../../../src/host/jobs/studio/farm-studio';
import type { ProfileJobs } from '../../../src/host/jobs/profile-jobs';
import { FakeApi } from '../../helpers/fake-api-server';

describe('the app on a farm that is not a Renderdrop node (an API server without its extensions)', () => {
  let api: FakeApi;
  let studio: FarmStudio;

  beforeAll(async () => {
    api = await FakeApi.start();
    const client = new ApiClient({ baseUrl: api.server.url, apiKey: 'RJ-test', sleep: async () => undefined });
    studio = new FarmStudio({ client, jobs: {} as ProfileJobs });
  });
  afterAll(async () => {
    await api?.server.close();
  });

  it('has no worker list, and says why in words instead of failing', async () => {
    expect(await studio.workers()).toEqual({ supported: false, message: expect.stringMatching(/^This farm is not a Renderdrop node \(or an older one\): it has no worker list, priorities or worker tags\./) });
    expect(await studio.block('render-01', undefined, true)).toMatchObject({ supported: false });
  });

  it('refuses a priority change saying the farm has no priorities', async () => {
    const error = await studio.setPriority('11111111-2222-4333-8444-555555555555', 80).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe('This farm is not a Renderdrop node (or an older one): it has no worker list, priorities or worker tags.');
  });
});
