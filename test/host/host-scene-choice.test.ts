import { afterEach, describe, expect, it } from 'vitest';
import { SubmissionJournal } from '../../src/core/journal/submission-journal';
import type { AppEvent } from '../../src/shared/contract/events';
import type { SubmissionView } from '../../src/shared/contract/submission-views';
import { FakeApi } from '../helpers/fake-api-server';
import { folderZip } from '../helpers/folder-zip';
import { blendBytes } from '../helpers/scene-files';
import { startFarmHost, type HostHarness } from './host-harness';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

function farmHost(): Promise<{ h: HostHarness; fake: FakeApi }> {
  return startFarmHost(cleanup);
}

function viewOf(id: string, phase: SubmissionView['phase']) {
  return (e: AppEvent): e is Extract<AppEvent, { name: 'submission.updated' }> => e.name === 'submission.updated' && e.payload.id === id && e.payload.phase === phase;
}

async function dropZip(h: HostHarness): Promise<string> {
  const zip = await folderZip('shots.zip', { 'shot A.blend': blendBytes(4_000), 'shot B.blend': blendBytes(5_000), 'lib/props.blend': blendBytes(300) });
  const [result] = await h.value('submissions.submit', { files: [{ path: zip }] });
  if (!result?.ok) throw new Error(`submit failed: ${JSON.stringify(result)}`);
  return result.submissionId;
}

describe('host: a dropped zip that holds several scenes', () => {
  it('asks which scene, waits after its upload, and goes on to review with the scene chosen, uploaded once', async () => {
    const { h, fake } = await farmHost();
    const id = await dropZip(h);
    const waiting = await h.waitFor(viewOf(id, 'choose-scene'));
    expect(waiting.payload.scenes?.sort()).toEqual(['shot A.blend', 'shot B.blend']);
    expect(fake.count('POST', '/api/external/v1/jobs')).toBe(0);

    const bad = await h.call('submissions.chooseScene', { submissionId: id, scenePath: 'shot C.blend' });
    expect(bad).toMatchObject({ ok: false, error: { message: expect.stringContaining('has no scene "shot C.blend"') } });

    const chosen = await h.value('submissions.chooseScene', { submissionId: id, scenePath: 'shot B.blend' });
    expect(chosen.scenes).toBeNull();
    const review = await h.waitFor(viewOf(id, 'review'));
    expect(fake.jobs.get(review.payload.jobId!)!.validateBodies).toEqual([{ scenePath: 'shot B.blend' }]);
    expect(fake.count('PUT', /^\/storage\//)).toBe(1);
    expect((await h.call('submissions.chooseScene', { submissionId: id, scenePath: 'shot A.blend' })).ok).toBe(false);
  });

  it('discards a submission waiting for its scene without creating a job', async () => {
    const { h, fake } = await farmHost();
    const id = await dropZip(h);
    await h.waitFor(viewOf(id, 'choose-scene'));
    const discarded = await h.value('submissions.discard', { submissionId: id });
    expect(discarded).toMatchObject({ phase: 'discarded', scenes: null });
    expect(await new SubmissionJournal({ dataDir: h.dir }).get(id)).toMatchObject({ step: 'uploaded', ending: 'declined' });
    expect(fake.jobs.size).toBe(0);
    (await new SubmissionJournal({ dataDir: h.dir }).lock(id)).release();
  });
});
