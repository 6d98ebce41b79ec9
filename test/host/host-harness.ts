import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeError } from '../../src/core/errors';
import { MemorySecretStore } from '../../src/core/secrets/memory-secret-store';
import { createHost, type AppHost, type HostOptions } from '../../src/host/host';
import type { CallName, CallRequest, CallResponse } from '../../src/shared/contract/calls';
import { dispatchCall } from '../../src/shared/contract/dispatch';
import type { AppEvent } from '../../src/shared/contract/events';
import type { Result } from '../../src/shared/contract/result';
import { FakeApi, type FakeApiOptions } from '../helpers/fake-api-server';

/** A host on a fresh config folder with keys in memory, recording every event. */
export interface HostHarness {
  host: AppHost;
  dir: string;
  secrets: MemorySecretStore;
  events: AppEvent[];
  opened: string[];
  /** Runs a call through the contract's dispatcher (schema checks included). */
  call<K extends CallName>(name: K, request: CallRequest<K>): Promise<Result<CallResponse<K>>>;
  /** Like `call`, but throws unless it succeeded. */
  value<K extends CallName>(name: K, request: CallRequest<K>): Promise<CallResponse<K>>;
  /** Resolves with the first event (past or future) matching `match`. */
  waitFor<E extends AppEvent>(match: (event: AppEvent) => event is E, timeoutMs?: number): Promise<E>;
  waitFor(match: (event: AppEvent) => boolean, timeoutMs?: number): Promise<AppEvent>;
  close(): Promise<void>;
}

/** Starts a host for a test; `blender: null` unless given. */
export async function startHost(options: Partial<HostOptions> & { dir?: string; secrets?: MemorySecretStore } = {}): Promise<HostHarness> {
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'rd-host-')));
  const secrets = options.secrets ?? new MemorySecretStore();
  const opened: string[] = [];
  const host = await createHost({
    configDir: dir,
    env: {},
    keyStore: 'memory',
    shell: 'web',
    blender: null,
    home: join(dir, 'home'),
    openPath: async (path) => {
      opened.push(path);
    },
    tracker: { activeIntervalMs: 30, idleIntervalMs: 200 },
    ...options,
    secrets,
  });
  const events: AppEvent[] = [];
  const waiters = new Set<() => void>();
  host.subscribe((event) => {
    events.push(event);
    for (const w of [...waiters]) w();
  });
  const call = ((name: CallName, request: unknown) => dispatchCall(host.handlers, name, request, serializeError)) as HostHarness['call'];
  const value = (async (name: CallName, request: unknown) => {
    const result = await dispatchCall(host.handlers, name, request, serializeError);
    if (!result.ok) throw new Error(`${name} failed: ${JSON.stringify(result.error)}`);
    return result.value;
  }) as HostHarness['value'];
  const waitFor = ((match: (event: AppEvent) => boolean, timeoutMs = 15_000) =>
    new Promise<AppEvent>((resolve, reject) => {
      const found = events.find(match);
      if (found) return resolve(found);
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching event within ${timeoutMs} ms; saw ${events.map((e) => e.name).join(', ')}`));
      }, timeoutMs);
      const check = () => {
        const hit = events.find(match);
        if (!hit) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(hit);
      };
      waiters.add(check);
    })) as HostHarness['waitFor'];
  return {
    host,
    dir,
    secrets,
    events,
    opened,
    call,
    value,
    waitFor,
    close: async () => {
      await host.close();
      if (!options.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A config folder whose active profile is a farm at `baseUrl` (key in `secrets`), set up by a host that has stopped again. */
export async function configWithFarm(baseUrl: string, prefix: string): Promise<{ dir: string; secrets: MemorySecretStore; profileId: string }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const secrets = new MemorySecretStore();
  const first = await startHost({ dir, secrets });
  const profile = await first.value('profiles.add', { name: 'Farm', baseUrl, apiKey: 'RJ-farm-key-123' });
  await first.value('profiles.use', { profileId: profile.id });
  await first.close();
  return { dir, secrets, profileId: profile.id };
}

/** A running host whose active profile is a fake farm; each is stopped by the function pushed on `cleanup`. */
export async function startFarmHost(cleanup: (() => Promise<void>)[], options: FakeApiOptions = {}): Promise<{ h: HostHarness; fake: FakeApi }> {
  const fake = await FakeApi.start(options);
  cleanup.push(() => fake.server.close());
  const h = await startHost();
  cleanup.push(() => h.close());
  const profile = await h.value('profiles.add', { name: 'Farm', baseUrl: fake.server.url, apiKey: 'RJ-farm-key-123' });
  await h.value('profiles.use', { profileId: profile.id });
  await h.host.ready();
  return { h, fake };
}
