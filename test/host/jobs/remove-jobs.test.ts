import { afterEach, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppEvent } from '../../../src/shared/contract/events';
import { HiddenJobs } from '../../../src/host/environment/hidden-jobs';
import { FakeApi } from '../../helpers/fake-api-server';
import { blendBytes, tempDir } from '../../helpers/scene-files';
import { configWithFarm, startHost, type HostHarness } from '../host-harness';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function toReview(h: HostHarness, name: string): Promise<string> {
  const scene = join(await tempDir('rd-remove-'), name);
  await writeFile(scene, blendBytes(20_000));
  const [result] = await h.value('submissions.submit', { files: [{ path: scene }] });
  if (!result?.ok) throw new Error(`submit failed: ${JSON.stringify(result)}`);
  const review = await h.waitFor(
    (e: AppEvent): e is Extract<AppEvent, { name: 'submission.updated' }> => e.name === 'submission.updated' && e.payload.id === result.submissionId && e.payload.phase === 'review',
  );
  return review.payload.jobId!;
}

async function farm(): Promise<{ fake: FakeApi; start: () => Promise<HostHarness> }> {
  const fake = await FakeApi.start();
  cleanup.push(() => fake.server.close());
  const { dir, secrets } = await configWithFarm(fake.server.url, 'rd-remove-host-');
  const start = async () => {
    const h = await startHost({ dir, secrets });
    cleanup.push(() => h.close());
    await h.host.ready();
    return h;
  };
  return { fake, start };
}

describe('Remove from list', () => {
  it('hides jobs for the profile across a restart, canceling those still at work first', async () => {
    const { fake, start } = await farm();
    const h = await start();
    const kept = await toReview(h, 'kept.blend');
    const gone = await toReview(h, 'gone.blend');
    const answer = await h.value('jobs.remove', { jobIds: [gone] });
    expect(answer).toEqual({ removed: 1, canceled: 1 });
    expect(fake.count('POST', new RegExp(`/jobs/${gone}/cancel$`))).toBe(1);
    expect((await h.value('jobs.list', {})).jobs.map((j) => j.id)).toEqual([kept]);
    await h.close();

    const again = await start();
    const listed = await again.value('jobs.list', {});
    expect(listed.jobs.map((j) => j.id)).toEqual([kept]);
    expect(listed.counts.all).toBe(1);
  });

  it('leaves nothing of a discarded review in the list', async () => {
    const { start } = await farm();
    const h = await start();
    const jobId = await toReview(h, 'discarded.blend');
    await h.value('jobs.cancel', { jobId });
    const listed = await h.value('jobs.list', {});
    expect(listed.jobs.find((j) => j.id === jobId)).toBeUndefined();
  });
});

describe('HiddenJobs', () => {
  it('keeps each profile\'s list apart and reads it back', async () => {
    const dir = await tempDir('rd-hidden-');
    const first = new HiddenJobs(dir);
    expect(await first.hide('farm', ['a', 'b', 'a'])).toBe(2);
    expect(await first.hide('farm', ['a'])).toBe(0);
    const second = new HiddenJobs(dir);
    expect(second.has('farm', 'a')).toBe(true);
    expect(second.has('farm', 'b')).toBe(true);
    expect(second.has('this-computer', 'a')).toBe(false);
  });
});
