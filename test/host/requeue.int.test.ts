import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeBlender, type BlenderInfo } from '../../src/render-node/blender/probe';
import { localKeyAccount, localNodeDataDir } from '../../src/core/secrets/local-node-key';
import type { AppEvent } from '../../src/shared/contract/events';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { startFarmProxy, type FarmProxy } from '../helpers/farm-proxy';
import { startHost, type HostHarness } from './host-harness';

const blenderPath = requireBlender();
const done = (id: string) => (e: AppEvent) => e.name === 'submission.updated' && e.payload.id === id && ['done', 'failed', 'canceled'].includes(e.payload.phase);

describe.skipIf(!blenderPath)('host: jobs.requeue against the local node and real Blender', () => {
  let blender: BlenderInfo;
  let work: string;
  let h: HostHarness;
  let proxy: FarmProxy | null = null;

  beforeAll(async () => {
    blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    work = await mkdtemp(join(tmpdir(), 'rd-host-requeue-'));
    h = await startHost({ blender, localNodePort: 0 });
    await h.host.ready();
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await proxy?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** Submit a 3-frame scene on the active profile and wait until it is done; its job id. */
  async function rendered(name: string): Promise<string> {
    const scene = join(work, name);
    await copyFile(await makeSampleScene(work, { frames: 3, missingTexture: false, name }), scene);
    const [submitted] = await h.value('submissions.submit', { files: [{ path: scene }], renderConfig: { colorManagementPreset: 'default', sampleCount: 2, outputFormat: 'PNG' } });
    if (!submitted?.ok) throw new Error(JSON.stringify(submitted));
    const first = await h.waitFor(done(submitted.submissionId), 120_000);
    expect(first.name === 'submission.updated' && first.payload.phase).toBe('done');
    return first.name === 'submission.updated' ? first.payload.jobId! : '';
  }

  it('renders picked frames again inside the job on the local node, and refuses a request of neither kind', { timeout: 300_000 }, async () => {
    const jobId = await rendered('host-requeue.blend');
    const folder = (await h.value('jobs.verifyFolder', { jobId })).folder;
    const before = await stat(join(folder, 'sample_0002.png'));
    const answer = await h.value('jobs.requeue', { jobId, frames: [3, 2] });
    expect(answer).toMatchObject({ inJob: true, frames: '2-3', job: { id: jobId, status: 'booting' } });
    await expect.poll(async () => (await h.value('jobs.get', { jobId })).summary.status, { timeout: 120_000, interval: 250 }).toBe('completed');
    const detail = await h.value('jobs.get', { jobId });
    expect(detail.timeline.find((e) => e.detail)).toMatchObject({ status: 'booting', detail: 'requeued frames 2-3' });
    expect(detail.summary.completedFrames).toBe(3);
    await expect.poll(async () => (await stat(join(folder, 'sample_0002.png'))).mtimeMs, { timeout: 60_000, interval: 250 }).toBeGreaterThan(before.mtimeMs);
    expect(await h.value('jobs.verifyFolder', { jobId })).toMatchObject({ present: 3, missing: [], broken: [] });

    const neither = await h.call('jobs.requeue', { jobId });
    expect(neither.ok).toBe(false);
    expect(!neither.ok && neither.error.message).toContain('Pick the frames to render again, or ask for the failed ones.');
    const none = await h.call('jobs.requeue', { jobId, failed: true });
    expect(!none.ok && none.error.message).toContain('Every frame of this job is rendered');
  });

  it('on a farm without requeue, sends the frames as a new job of the same scene and settings', { timeout: 300_000 }, async () => {
    proxy = await startFarmProxy(h.host.localNodeUrl!);
    const key = await h.secrets.get(localKeyAccount(localNodeDataDir(h.dir)));
    const profile = await h.value('profiles.add', { name: 'Plain farm', baseUrl: proxy.url, apiKey: key! });
    await h.value('profiles.use', { profileId: profile.id });
    const jobId = await rendered('plain-host.blend');

    const answer = await h.value('jobs.requeue', { jobId, frames: [1] });
    if (answer.inJob || !answer.sent.ok) throw new Error(JSON.stringify(answer));
    expect(answer.frames).toBe('1');
    expect(proxy.requests).toContain(`POST /api/external/v1/node/jobs/${jobId}/requeue`);
    const second = await h.waitFor(done(answer.sent.submissionId), 120_000);
    expect(second.name === 'submission.updated' && second.payload.phase).toBe('done');
    const newJob = second.name === 'submission.updated' ? second.payload.jobId! : '';
    expect(newJob).not.toBe(jobId);
    expect((await h.value('jobs.get', { jobId: newJob })).requestedConfig).toMatchObject({ frameRanges: ['1'], sampleCount: 2 });
  });
});
