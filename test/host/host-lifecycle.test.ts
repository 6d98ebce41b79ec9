import { afterEach, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { ApiClient } from '../../src/core/api/api-client';
import { SubmissionJournal } from '../../src/core/journal/submission-journal';
import { recordForFile } from '../../src/core/lifecycle/record-for-file';
import { SubmissionLifecycle } from '../../src/core/lifecycle/submission-lifecycle';
import { pollingWaiter } from '../../src/core/lifecycle/wait-for-job';
import { THIS_COMPUTER_PROFILE_ID } from '../../src/shared/contract/app-state';
import type { AppEvent } from '../../src/shared/contract/events';
import type { SubmissionView } from '../../src/shared/contract/submission-views';
import { writeTree } from '../blend/helpers/scene-folder';
import { SyntheticBlend } from '../blend/helpers/synthetic-blend';
import { FakeApi, type FakeApiOptions } from '../helpers/fake-api-server';
import { HostileServer, sendJson } from '../helpers/hostile-server';
import { blendBytes, tempDir } from '../helpers/scene-files';
import { configWithFarm, startFarmHost, startHost, type HostHarness } from './host-harness';
import { ProjectRoots } from '../../src/core/packing/project-roots';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

function farmHost(options: FakeApiOptions = {}): Promise<{ h: HostHarness; fake: FakeApi }> {
  return startFarmHost(cleanup, options);
}

async function submitScene(h: HostHarness, name = 'shot.blend'): Promise<string> {
  const scene = join(await tempDir('rd-host-life-'), name);
  await writeFile(scene, blendBytes(20_000));
  const [result] = await h.value('submissions.submit', { files: [{ path: scene }] });
  if (!result?.ok) throw new Error(`submit failed: ${JSON.stringify(result)}`);
  return result.submissionId;
}

function viewOf(id: string, phase: SubmissionView['phase']) {
  return (e: AppEvent): e is Extract<AppEvent, { name: 'submission.updated' }> => e.name === 'submission.updated' && e.payload.id === id && e.payload.phase === phase;
}

describe('host: the shared final-failure policy', () => {
  it('ends a submission whose upload the storage refuses, instead of offering Retry forever', async () => {
    const { h, fake } = await farmHost();
    fake.refuseStorage(413, { code: 'too_large', message: 'Entity too large' });
    const id = await submitScene(h);
    const failed = await h.waitFor(viewOf(id, 'failed'));
    expect(failed.payload.canRetry).toBe(false);
    expect(failed.payload.error?.message).toMatch(/refused the upload \(413/);
    expect(await new SubmissionJournal({ dataDir: h.dir }).get(id)).toMatchObject({ ending: 'failed', error: { kind: 'transfer' } });
    expect((await h.call('submissions.retry', { submissionId: id })).ok).toBe(false);
  });

  it('keeps a submission retryable when the failure may pass (upload URLs that keep expiring)', async () => {
    const { h, fake } = await farmHost();
    fake.refuseStorage(403, { code: 'AccessDenied', message: 'Request has expired' }, 4);
    const id = await submitScene(h);
    const failed = await h.waitFor(viewOf(id, 'failed'));
    expect(failed.payload).toMatchObject({ canRetry: true, error: { kind: 'transfer', code: 'upload-url-expired' } });
    await h.value('submissions.retry', { submissionId: id });
    await h.waitFor(viewOf(id, 'review'));
    expect(fake.count('PUT', /^\/storage\//)).toBe(5);
  });
});

describe('host: review', () => {
  it('holds the submission at review, and Cancel in the queue discards it without rendering', async () => {
    const { h, fake } = await farmHost();
    const id = await submitScene(h);
    const review = await h.waitFor(viewOf(id, 'review'));
    const held = new SubmissionJournal({ dataDir: h.dir }).lock(id);
    await expect(held).rejects.toMatchObject({ code: 'busy' });
    await h.value('jobs.cancel', { jobId: review.payload.jobId! });
    await h.waitFor(viewOf(id, 'discarded'));
    const job = fake.jobs.get(review.payload.jobId!)!;
    expect(job.renderBodies).toEqual([]);
    expect(await new SubmissionJournal({ dataDir: h.dir }).get(id)).toMatchObject({ step: 'validated', ending: 'declined' });
    (await new SubmissionJournal({ dataDir: h.dir }).lock(id)).release();
  });
});

describe('host: connection state per session', () => {
  it('a retry of the previous profile\'s client does not change the state of the profile used now', async () => {
    const slow = await HostileServer.start();
    cleanup.push(() => slow.close());
    slow.route('GET', '/api/external/v1/jobs', (_req, res) => sendJson(res, 429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': '1' }));
    const h = await startHost();
    cleanup.push(() => h.close());
    const profile = await h.value('profiles.add', { name: 'Busy farm', baseUrl: slow.url, apiKey: 'RJ-busy-key-123' });
    await h.value('profiles.use', { profileId: profile.id });
    await h.waitFor((e) => e.name === 'connection.changed' && e.payload.state === 'rate-limited');
    await h.value('profiles.use', { profileId: THIS_COMPUTER_PROFILE_ID });
    const switchedAt = h.events.length;
    const asked = slow.requests.length;
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (slow.requests.length > asked) {
          clearInterval(check);
          resolve();
        }
      }, 20);
    });
    await h.value('app.getState', {});
    const after = h.events.slice(switchedAt).filter((e) => e.name === 'connection.changed');
    expect(after.map((e) => e.payload.state)).not.toContain('rate-limited');
    expect((await h.value('app.getState', {})).connection.state).toBe('blender-missing');
  });
});

describe('host: resuming at start', () => {
  it('follows a submission whose render was already requested to its end, downloads included', async () => {
    const fake = await FakeApi.start();
    cleanup.push(() => fake.server.close());
    const { dir, secrets, profileId } = await configWithFarm(fake.server.url, 'rd-host-resume-');

    const journal = new SubmissionJournal({ dataDir: dir });
    const scene = join(await tempDir('rd-host-resume-scene-'), 'shot.blend');
    await writeFile(scene, blendBytes(20_000));
    const downloads = await tempDir('rd-host-resume-frames-');
    const { record } = await recordForFile(journal, { filePath: scene, baseUrl: fake.server.url, profileId, download: { wanted: true, dir: null, root: downloads } });
    const client = new ApiClient({ baseUrl: fake.server.url, apiKey: 'RJ-farm-key-123' });
    const handed = await new SubmissionLifecycle({ client, journal, waitForJob: pollingWaiter(client, { intervalMs: 0 }) }).advance(record, { until: 'render-requested' });
    expect(handed.step).toBe('render-requested');

    const h = await startHost({ dir, secrets });
    cleanup.push(() => h.close());
    await h.waitFor((e) => e.name === 'submission.updated' && e.payload.id === record.id && e.payload.phase === 'done', 20_000);
    const done = await journal.get(record.id);
    expect(done).toMatchObject({ step: 'downloaded', ending: null });
    expect(done?.downloadedTo).toContain(downloads);
    expect(fake.jobs.get(handed.jobId!)!.renderBodies).toHaveLength(1);
  });
});

describe('host: packing a dropped scene', () => {
  /** A scene using a texture beside it, one beside its folder (in its project, remembered as `root`), and one that is missing. */
  async function writeProject(): Promise<{ root: string; scene: string }> {
    const root = await tempDir('rd-host-pack-');
    const blend = new SyntheticBlend();
    blend.addImage({ name: 'Grid', path: '//textures/grid.png' });
    blend.addImage({ name: 'Stamp', path: '//../shared/stamp.png' });
    blend.addImage({ name: 'Gone', path: '//textures/missing.png' });
    await writeTree(root, { 'proj/shot.blend': blend.build(), 'proj/textures/grid.png': 'png', 'shared/stamp.png': 'png' });
    return { root, scene: join(root, 'proj', 'shot.blend') };
  }

  async function submitPath(h: HostHarness, path: string): Promise<string> {
    const [result] = await h.value('submissions.submit', { files: [{ path }] });
    if (!result?.ok) throw new Error(`submit failed: ${JSON.stringify(result)}`);
    return result.submissionId;
  }

  it('holds a scene with missing files before upload, saying what travels and what is missing; Cancel sends nothing', async () => {
    const { root, scene } = await writeProject();
    const { h, fake } = await farmHost();
    await new ProjectRoots(h.dir).remember(scene, root);
    const id = await submitPath(h, scene);
    const held = await h.waitFor(viewOf(id, 'missing-files'));
    expect(held.payload.packing).toEqual({
      files: 3,
      bytes: expect.any(Number),
      missing: [
        {
          kind: 'image',
          owner: 'Gone',
          path: join(root, 'proj', 'textures', 'missing.png'),
          reason: 'not on this computer',
          advice: 'Put the file back at that path, or relink it in Blender (File > External Data > Find Missing Files) and save the scene.',
        },
      ],
    });
    await h.value('submissions.discard', { submissionId: id });
    await h.waitFor(viewOf(id, 'discarded'));
    expect(fake.uploads.size).toBe(0);
    expect(await new SubmissionJournal({ dataDir: h.dir }).get(id)).toMatchObject({ step: 'traced', ending: 'declined' });
  });

  it('continues without the missing files, and the review lists only those, by the artist\'s path', async () => {
    const { root, scene } = await writeProject();
    const external = `_external${join(root, 'shared')}`.replace(/\\/g, '/');
    const dependency = (path: string, resolvedPath: string, exists: boolean) => ({ kind: 'image', name: path.split('/').pop(), path, resolvedPath, packed: false, exists });
    const analysis = {
      scene: 'Scene',
      frameStart: 1,
      frameEnd: 1,
      cameras: ['Camera'],
      dependencies: [dependency(`//${external}/stamp.png`, `${external}/stamp.png`, true), dependency('//textures/missing.png', 'textures/missing.png', false)],
      warnings: [
        { code: 'missing-dependency', message: `Image "stamp.png" is missing: //${external}/stamp.png was not uploaded with the scene.`, path: `//${external}/stamp.png` },
        { code: 'missing-dependency', message: 'Image "missing.png" is missing: //textures/missing.png was not uploaded with the scene.', path: '//textures/missing.png' },
      ],
    };
    const { h, fake } = await farmHost({ analysis });
    await new ProjectRoots(h.dir).remember(scene, root);
    const id = await submitPath(h, scene);
    await h.waitFor(viewOf(id, 'missing-files'));
    await h.value('submissions.continue', { submissionId: id });
    await h.waitFor(viewOf(id, 'review'));
    expect(h.events.some((e) => e.name === 'transfer.progress' && e.payload.id === `pack:${id}` && e.payload.done)).toBe(true);
    expect([...fake.uploads.values()]).toMatchObject([{ fileName: 'shot.zip', fileType: 'zip' }]);
    const sheet = await h.value('submissions.review', { submissionId: id });
    expect(sheet.warnings).toEqual([
      { code: 'missing-dependency', path: join(root, 'proj', 'textures', 'missing.png'), message: `The image "Gone" uses ${join(root, 'proj', 'textures', 'missing.png')}: not on this computer. The farm renders without it. Put the file back at that path, or relink it in Blender (File > External Data > Find Missing Files) and save the scene.` },
    ]);
  });

  it('names the missing files of a scene dropped in the browser as the scene stores them', async () => {
    const { scene } = await writeProject();
    const { h } = await farmHost();
    const { token } = await h.host.stageUpload('shot.blend', Readable.from([await readFile(scene)]));
    const [result] = await h.value('submissions.submit', { files: [{ token }] });
    if (!result?.ok) throw new Error(`submit failed: ${JSON.stringify(result)}`);
    const held = await h.waitFor(viewOf(result.submissionId, 'missing-files'));
    const alone = 'could not be checked: the browser sent only the scene, not the folder around it';
    expect(held.payload.packing?.missing.map((m) => [m.path, m.reason])).toEqual([
      ['//textures/grid.png', alone],
      ['//../shared/stamp.png', alone],
      ['//textures/missing.png', alone],
    ]);
  });
});
