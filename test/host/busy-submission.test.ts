import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SubmissionJournal } from '../../src/core/journal/submission-journal';
import { recordForFile } from '../../src/core/lifecycle/record-for-file';
import { MemorySecretStore } from '../../src/core/secrets/memory-secret-store';
import { FakeApi } from '../helpers/fake-api-server';
import { blendBytes, tempDir } from '../helpers/scene-files';
import { configWithFarm, startHost, type HostHarness } from './host-harness';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function start(dir: string, secrets: MemorySecretStore): Promise<HostHarness> {
  const h = await startHost({ dir, secrets });
  cleanup.push(() => h.close());
  return h;
}

describe('host: submissions another Renderdrop is continuing', () => {
  it('leaves them alone at start, without an error, and resumes the others', async () => {
    const fake = await FakeApi.start();
    cleanup.push(() => fake.server.close());
    const { dir, secrets, profileId } = await configWithFarm(fake.server.url, 'rd-host-busy-');

    const scenes = await tempDir('rd-host-busy-scenes-');
    const journal = new SubmissionJournal({ dataDir: dir });
    const record = async (name: string) => {
      const path = join(scenes, name);
      await writeFile(path, blendBytes(10_000));
      return (await recordForFile(journal, { filePath: path, baseUrl: fake.server.url, profileId })).record;
    };
    const held = await record('held.blend');
    const free = await record('free.blend');
    const lock = await new SubmissionJournal({ dataDir: dir }).lock(held.id);
    cleanup.push(async () => lock.release());

    const h = await start(dir, secrets);
    await h.host.ready();
    await h.waitFor((e) => e.name === 'submission.updated' && e.payload.id === free.id && e.payload.phase === 'review');
    const listed = await h.value('submissions.list', {});
    expect(listed.map((s) => s.id)).toEqual([free.id]);
    expect(h.events.some((e) => e.name === 'submission.updated' && e.payload.id === held.id && e.payload.error !== null)).toBe(false);
    expect(fake.count('POST', '/api/external/v1/uploads')).toBe(1);
    expect((await journal.get(held.id))?.step).toBe('preflighted');
  });
});
