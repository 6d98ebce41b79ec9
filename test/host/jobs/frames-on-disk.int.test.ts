import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localNodeDataDir } from '../../../src/core/secrets/local-node-key';
import { probeBlender, type BlenderInfo } from '../../../src/render-node/blender/probe';
import { Storage } from '../../../src/render-node/disk/storage';
import type { AppEvent } from '../../../src/shared/contract/events';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { decodePng } from '../../helpers/png-pixels';
import { startHost, type HostHarness } from '../host-harness';

const blenderPath = requireBlender();
const FRAMES = 8;

type JobUpdated = Extract<AppEvent, { name: 'job.updated' }>;
const isJobUpdated = (e: AppEvent): e is JobUpdated => e.name === 'job.updated';

describe.skipIf(!blenderPath)("the app's automatic download brings frames in while the job renders (embedded node, real Blender)", () => {
  let blender: BlenderInfo;
  let h: HostHarness;
  let work: string;

  beforeAll(async () => {
    blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    work = await mkdtemp(join(tmpdir(), 'rd-host-frames-on-disk-'));
    h = await startHost({ blender, localNodePort: 0 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('the queue row counts frames on disk while the job renders, and the folder is complete at the end', { timeout: 300_000 }, async () => {
    const out = join(work, 'downloads');
    await h.value('settings.update', { downloadDir: out, autoDownload: true });
    const scene = await makeSampleScene(work, { frames: FRAMES, missingTexture: false, everySample: true, name: 'app-follow.blend' });
    const [submitted] = await h.value('submissions.submit', { files: [{ path: scene }], renderConfig: { colorManagementPreset: 'default', sampleCount: 1024, resolutionPercentage: 200, outputFormat: 'PNG' } });
    if (!submitted?.ok) throw new Error(JSON.stringify(submitted));

    const during = await h.waitFor(
      (e): e is JobUpdated => isJobUpdated(e) && e.payload.status === 'rendering' && e.payload.download.state === 'downloading' && e.payload.download.filesDone > 0 && e.payload.download.filesDone < FRAMES,
      240_000,
    );
    const { id: jobId, download } = during.payload;
    expect(download.filesTotal).toBe(FRAMES);
    expect(download.dir).not.toBeNull();
    const onDisk = (await readdir(download.dir!)).filter((f) => f.endsWith('.png'));
    const stillRendering = (await h.value('jobs.frames', { jobId })).status === 'rendering';
    if (stillRendering) expect(onDisk.length).toBeLessThan(FRAMES);
    expect(onDisk.length).toBeGreaterThanOrEqual(download.filesDone);

    const done = await h.waitFor((e): e is JobUpdated => isJobUpdated(e) && e.payload.id === jobId && e.payload.download.state === 'done', 240_000);
    expect(done.payload.status).toBe('completed');
    const names = Array.from({ length: FRAMES }, (_, i) => `sample_${String(i + 1).padStart(4, '0')}.png`);
    expect((await readdir(download.dir!)).sort()).toEqual(names);
    for (const name of names) expect(decodePng(await readFile(join(download.dir!, name))).width).toBe(128);
    expect(await h.value('jobs.verifyFolder', { jobId })).toMatchObject({ folder: download.dir, expected: FRAMES, present: FRAMES, missing: [], broken: [] });
  });

  it('frames rendered again in the same job (Render again) come into the folder while the job renders again', { timeout: 300_000 }, async () => {
    const scene = await makeSampleScene(work, { frames: FRAMES, missingTexture: false, everySample: true, name: 'app-again.blend' });
    const [submitted] = await h.value('submissions.submit', { files: [{ path: scene }], renderConfig: { colorManagementPreset: 'default', sampleCount: 1024, resolutionPercentage: 200, outputFormat: 'PNG' } });
    if (!submitted?.ok) throw new Error(JSON.stringify(submitted));
    const first = await h.waitFor((e): e is JobUpdated => isJobUpdated(e) && e.payload.fileName === 'app-again.blend' && e.payload.download.state === 'done', 240_000);
    const { id: jobId, download } = first.payload;
    const again = [3, 4, 5, 6, 7, 8].map((f) => join(download.dir!, `sample_${String(f).padStart(4, '0')}.png`));
    const mtimes = () => Promise.all(again.map(async (path) => (await stat(path)).mtimeMs));
    const before = await mtimes();
    const seen = h.events.length;
    const requeued = await h.value('jobs.requeue', { jobId, frames: [3, 4, 5, 6, 7, 8] });
    expect(requeued.inJob).toBe(true);
    const during = await h.waitFor(
      (e): e is JobUpdated => h.events.indexOf(e) >= seen && isJobUpdated(e) && e.payload.id === jobId && e.payload.status === 'rendering' && e.payload.download.state === 'downloading' && e.payload.download.filesDone >= 3,
      240_000,
    );
    expect(during.payload.completedFrames).toBeLessThan(FRAMES);
    const whileRendering = await mtimes();
    expect(whileRendering.filter((t, i) => t > before[i]!).length, 'a frame rendered again was fetched again while the job rendered').toBeGreaterThan(0);
    await h.waitFor((e): e is JobUpdated => h.events.indexOf(e) >= seen && isJobUpdated(e) && e.payload.id === jobId && e.payload.status === 'completed' && e.payload.download.state === 'done', 240_000);
    const onNode = join(new Storage(localNodeDataDir(h.dir)).framesDir(jobId), 'sample_0008.png');
    expect((await readFile(join(download.dir!, 'sample_0008.png'))).equals(await readFile(onNode))).toBe(true);
    expect(Math.round((await stat(join(download.dir!, 'sample_0008.png'))).mtimeMs)).toBe(Math.floor((await stat(onNode)).mtimeMs));
  });

  it('a job canceled while its frames came in keeps them, and its row says they are downloaded', { timeout: 300_000 }, async () => {
    const scene = await makeSampleScene(work, { frames: FRAMES, missingTexture: false, everySample: true, name: 'app-cancel.blend' });
    const [submitted] = await h.value('submissions.submit', { files: [{ path: scene }], renderConfig: { colorManagementPreset: 'default', sampleCount: 1024, resolutionPercentage: 200, outputFormat: 'PNG' } });
    if (!submitted?.ok) throw new Error(JSON.stringify(submitted));
    const during = await h.waitFor(
      (e): e is JobUpdated => isJobUpdated(e) && e.payload.fileName === 'app-cancel.blend' && e.payload.status === 'rendering' && e.payload.download.filesDone > 0,
      240_000,
    );
    const jobId = during.payload.id;
    await h.value('jobs.cancel', { jobId });
    const ended = await h.waitFor((e): e is JobUpdated => isJobUpdated(e) && e.payload.id === jobId && e.payload.status === 'canceled' && e.payload.download.state !== 'downloading', 60_000);
    const onDisk = (await readdir(during.payload.download.dir!)).filter((f) => f.endsWith('.png'));
    expect(ended.payload.download).toMatchObject({ state: 'done', dir: during.payload.download.dir, filesDone: onDisk.length });
    expect(onDisk.length).toBeGreaterThan(0);
    expect(onDisk.length).toBeLessThan(FRAMES);
  });
});
