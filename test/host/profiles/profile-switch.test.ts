import { afterEach, describe, expect, it } from 'vitest';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { FileSecretStore, keyFilePath } from '../../../src/core/secrets';
import { EncryptedFileSecretStore } from '../../../src/main/keychain/encrypted-file-secret-store';
import { THIS_COMPUTER_PROFILE_ID } from '../../../src/shared/contract/app-state';
import type { Job } from '../../../src/shared/api/job';
import { RefusingKeychain } from '../../helpers/refusing-keychain';
import { FakeApi } from '../../helpers/fake-api-server';
import { HostileServer } from '../../helpers/hostile-server';
import { configWithFarm, startHost, type HostHarness } from '../host-harness';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup.length = 0;
});

async function host(options: Parameters<typeof startHost>[0] = {}): Promise<HostHarness> {
  const h = await startHost(options);
  cleanup.push(() => h.close());
  return h;
}

async function farmWithJob(fileName: string): Promise<FakeApi> {
  const fake = await FakeApi.start();
  cleanup.push(() => fake.server.close());
  const now = new Date().toISOString();
  const job: Job = { id: `farm-${fileName}`, status: 'completed', workspaceId: 'w-1', createdAt: now, updatedAt: now, sceneFile: { fileName } };
  fake.jobs.set(job.id, { job, slug: `slug-${job.id}`, completed: 2, total: 2, reads: 0, validateBodies: [], renderBodies: [] });
  return fake;
}

/** An address where nothing listens: a server that was started and stopped again. */
async function downAddress(): Promise<string> {
  const server = await HostileServer.start();
  const url = server.url;
  await server.close();
  return url;
}

async function queueNames(h: HostHarness): Promise<string[]> {
  return (await h.value('jobs.list', {})).jobs.map((j) => j.fileName);
}

describe('profile switches wait in line and survive failures', () => {
  it('a farm that is down: the switch fails saying why, the previous farm keeps working, the next switch works', async () => {
    const farm = await farmWithJob('kitchen.blend');
    const h = await host();
    const working = await h.value('profiles.add', { name: 'Studio farm', baseUrl: farm.server.url, apiKey: 'RJ-farm-key-123' });
    await h.value('profiles.use', { profileId: working.id });
    await h.host.ready();
    expect(await queueNames(h)).toEqual(['kitchen.blend']);

    const down = await h.value('profiles.add', { name: 'Night farm', baseUrl: await downAddress(), apiKey: 'RJ-night-key-123' });
    const failed = await h.call('profiles.use', { profileId: down.id });
    expect(failed.ok).toBe(false);
    const error = failed.ok ? null : failed.error;
    expect(error?.code).toBe('switch-failed');
    expect(error?.message).toMatch(/^Could not switch to "Night farm": The server at http:\/\/127\.0\.0\.1:\d+ is not answering: nothing takes connections at that address\. Check that it is running and that the address is right\./);
    expect(error?.message).toMatch(/Renderdrop is still using "Studio farm"\.$/);

    const state = await h.value('app.getState', {});
    expect(state.activeProfileId).toBe(working.id);
    expect(state.connection.state).toBe('ok');
    expect(await queueNames(h)).toEqual(['kitchen.blend']);
    const listed = farm.count('GET', '/api/external/v1/jobs');
    expect((await h.value('jobs.refresh', {})).jobs.map((j) => j.fileName)).toEqual(['kitchen.blend']);
    expect(farm.count('GET', '/api/external/v1/jobs')).toBeGreaterThan(listed);

    await h.value('profiles.use', { profileId: THIS_COMPUTER_PROFILE_ID });
    await h.host.ready();
    expect((await h.value('app.getState', {})).activeProfileId).toBe(THIS_COMPUTER_PROFILE_ID);
    expect(await queueNames(h)).toEqual([]);
    await h.value('profiles.use', { profileId: working.id });
    await h.host.ready();
    expect(await queueNames(h)).toEqual(['kitchen.blend']);
  });

  it('a switch asked for while a failing one runs still happens', async () => {
    const h = await host();
    const down = await h.value('profiles.add', { name: 'Night farm', baseUrl: await downAddress(), apiKey: 'RJ-night-key-123' });
    const farm = await farmWithJob('garden.blend');
    const working = await h.value('profiles.add', { name: 'Studio farm', baseUrl: farm.server.url, apiKey: 'RJ-farm-key-123' });
    const [first, second] = await Promise.all([h.call('profiles.use', { profileId: down.id }), h.call('profiles.use', { profileId: working.id })]);
    expect(first.ok).toBe(false);
    expect(second.ok).toBe(true);
    await h.host.ready();
    expect((await h.value('app.getState', {})).activeProfileId).toBe(working.id);
    expect(await queueNames(h)).toEqual(['garden.blend']);
  });

  it('a farm whose key the keychain cannot read: the switch fails with the keychain\'s reason, "This computer" stays', async () => {
    const keychain = new RefusingKeychain();
    const h = await host({ secrets: keychain, keyStore: 'keychain' });
    const farm = await farmWithJob('kitchen.blend');
    const locked = await h.value('profiles.add', { name: 'Locked farm', baseUrl: farm.server.url });
    expect(locked).toMatchObject({ hasKey: false, keyStorage: 'unreadable' });
    const failed = await h.call('profiles.use', { profileId: locked.id });
    expect(failed.ok ? '' : failed.error.message).toBe(
      'Could not switch to "Locked farm": The system keychain refused to give its API key (AccessDenied). Unlock the keychain, or enter the key again in Settings. Renderdrop is still using "This computer".',
    );
    expect((await h.value('app.getState', {})).activeProfileId).toBe(THIS_COMPUTER_PROFILE_ID);
    expect(farm.count('GET', '/api/external/v1/jobs')).toBe(0);
    await h.value('profiles.use', { profileId: THIS_COMPUTER_PROFILE_ID });
    expect(await h.value('profiles.testConnection', { profileId: THIS_COMPUTER_PROFILE_ID })).toMatchObject({ ok: true, jobCount: 0 });
  });
});

describe('starting on a farm whose key cannot be read', () => {
  it('opens saying why instead of wedging, and "This computer" can be chosen', async () => {
    const farm = await farmWithJob('kitchen.blend');
    const { dir } = await configWithFarm(farm.server.url, 'rd-locked-start-');
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const h = await host({ dir, secrets: new RefusingKeychain(), keyStore: 'keychain' });
    const state = await h.value('app.getState', {});
    expect(state.activeProfileId).not.toBe(THIS_COMPUTER_PROFILE_ID);
    expect(state.connection).toEqual({ state: 'no-key', message: 'The system keychain refused to give its API key (AccessDenied). Unlock the keychain, or enter the key again in Settings.' });
    expect(await queueNames(h)).toEqual([]);
    await h.value('profiles.use', { profileId: THIS_COMPUTER_PROFILE_ID });
    await h.host.ready();
    expect((await h.value('app.getState', {})).activeProfileId).toBe(THIS_COMPUTER_PROFILE_ID);
    expect((await h.value('jobs.list', {})).profileId).toBe(THIS_COMPUTER_PROFILE_ID);
  });
});

describe('"This computer" needs no keychain', () => {
  it('starts, switches back and answers with a keychain that refuses every call', async () => {
    const keychain = new RefusingKeychain();
    const h = await host({ secrets: keychain, keyStore: 'keychain' });
    const state = await h.value('app.getState', {});
    expect(keychain.calls).toBeGreaterThan(0);
    expect(state.activeProfileId).toBe(THIS_COMPUTER_PROFILE_ID);
    expect(state.profiles.find((p) => p.id === THIS_COMPUTER_PROFILE_ID)).toMatchObject({ hasKey: true, keyStorage: 'memory' });
    expect(state.connection.state).toBe('blender-missing');
    expect(await h.value('profiles.testConnection', { profileId: THIS_COMPUTER_PROFILE_ID })).toMatchObject({ ok: true, jobCount: 0 });
    await h.value('profiles.use', { profileId: THIS_COMPUTER_PROFILE_ID });
    await h.host.ready();
    expect((await h.value('jobs.list', {})).profileId).toBe(THIS_COMPUTER_PROFILE_ID);
    expect((await h.value('app.getState', {})).connection.state).toBe('blender-missing');
  });
});

describe('a key the keychain refuses', () => {
  it('is not saved as if usable: the profile is not added, and the reason and the choice are given', async () => {
    const h = await host({ secrets: new RefusingKeychain(), keyStore: 'keychain' });
    const farm = await farmWithJob('kitchen.blend');
    const refused = await h.call('profiles.add', { name: 'Studio farm', baseUrl: farm.server.url, apiKey: 'RJ-farm-key-123' });
    expect(refused.ok ? null : refused.error).toMatchObject({ code: 'key-not-stored' });
    expect(refused.ok ? '' : refused.error.message).toBe(
      '"Studio farm" was not added: the system keychain refused to store its key (AccessDenied). Unlock the keychain and add it again, or keep the key only until Renderdrop quits.',
    );
    const state = await h.value('app.getState', {});
    expect(state.profiles.map((p) => p.name)).toEqual(['This computer']);
    expect(state.keyFallback).toBeUndefined();
    const noFile = await h.call('profiles.add', { name: 'Studio farm', baseUrl: farm.server.url, apiKey: 'RJ-farm-key-123', keyPlace: 'encrypted-file' });
    expect(noFile.ok ? null : noFile.error).toMatchObject({ code: 'no-key-fallback' });
    expect((await h.value('app.getState', {})).profiles).toHaveLength(1);
  });

  it('kept for this session only when the artist says so, and the farm can be used', async () => {
    const h = await host({ secrets: new RefusingKeychain(), keyStore: 'keychain' });
    const farm = await farmWithJob('kitchen.blend');
    const added = await h.value('profiles.add', { name: 'Studio farm', baseUrl: farm.server.url, apiKey: 'RJ-farm-key-123', keyPlace: 'session' });
    expect(added).toMatchObject({ hasKey: true, keyStorage: 'memory' });
    await h.value('profiles.use', { profileId: added.id });
    await h.host.ready();
    expect(await queueNames(h)).toEqual(['kitchen.blend']);
    const replaced = await h.call('profiles.setKey', { profileId: added.id, apiKey: 'RJ-farm-key-456' });
    expect(replaced.ok ? '' : replaced.error.message).toMatch(/^The key of "Studio farm" was not saved: the system keychain refused to store it \(AccessDenied\)\./);
    expect((await h.value('profiles.setKey', { profileId: added.id, apiKey: 'RJ-farm-key-456', keyPlace: 'session' })).keyStorage).toBe('memory');
    expect((await h.value('profiles.clearKey', { profileId: added.id })).hasKey).toBe(false);
  });

  it('kept in the encrypted file when the app has one and the artist chooses it; the file holds no plain key', async () => {
    const keyFile = join(tmpdir(), `rd-keys-${process.pid}-${Date.now()}.json`);
    cleanup.push(() => rm(keyFile, { force: true }));
    const sealed = new EncryptedFileSecretStore(keyFile, {
      encrypt: async (text) => Buffer.from([...Buffer.from(text)].reverse()),
      decrypt: async (data) => ({ text: Buffer.from([...data].reverse()).toString(), reEncrypt: false }),
    });
    const h = await host({ secrets: new RefusingKeychain(), keyStore: 'keychain', keyFallback: { kind: 'encrypted-file', secrets: sealed } });
    expect((await h.value('app.getState', {})).keyFallback).toBe('encrypted-file');
    const farm = await farmWithJob('kitchen.blend');
    const refused = await h.call('profiles.add', { name: 'Studio farm', baseUrl: farm.server.url, apiKey: 'RJ-farm-key-123' });
    expect(refused.ok ? '' : refused.error.message).toMatch(/or keep the key in an encrypted file in the settings folder, or only until Renderdrop quits\.$/);
    const added = await h.value('profiles.add', { name: 'Studio farm', baseUrl: farm.server.url, apiKey: 'RJ-farm-key-123', keyPlace: 'encrypted-file' });
    expect(added).toMatchObject({ hasKey: true, keyStorage: 'encrypted-file' });
    expect(await readFile(keyFile, 'utf8')).not.toContain('RJ-farm-key-123');
    expect(await sealed.get(added.id)).toBe('RJ-farm-key-123');
    await h.value('profiles.use', { profileId: added.id });
    await h.host.ready();
    expect(await queueNames(h)).toEqual(['kitchen.blend']);
    await h.value('profiles.clearKey', { profileId: added.id });
    expect(await sealed.get(added.id)).toBeNull();
  });

  it('kept in the key file by choice (browser mode), it survives a restart of the app', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rd-host-keyfile-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const fallback = () => ({ kind: 'file' as const, secrets: new FileSecretStore(keyFilePath(dir)) });
    const farm = await farmWithJob('kitchen.blend');
    const first = await startHost({ dir, secrets: new RefusingKeychain(), keyStore: 'keychain', keyFallback: fallback() });
    expect((await first.value('app.getState', {})).keyFallback).toBe('file');
    const refused = await first.call('profiles.add', { name: 'Studio farm', baseUrl: farm.server.url, apiKey: 'RJ-farm-key-123' });
    expect(refused.ok ? '' : refused.error.message).toMatch(/or keep the key in a file in the settings folder that only your user account can read, or only until Renderdrop quits\.$/);
    const added = await first.value('profiles.add', { name: 'Studio farm', baseUrl: farm.server.url, apiKey: 'RJ-farm-key-123', keyPlace: 'file' });
    expect(added).toMatchObject({ hasKey: true, keyStorage: 'file' });
    await first.close();

    const again = await host({ dir, secrets: new RefusingKeychain(), keyStore: 'keychain', keyFallback: fallback() });
    expect((await again.value('app.getState', {})).profiles.find((p) => p.id === added.id)).toMatchObject({ hasKey: true, keyStorage: 'file' });
    await again.value('profiles.use', { profileId: added.id });
    await again.host.ready();
    expect(await queueNames(again)).toEqual(['kitchen.blend']);
  });
});
