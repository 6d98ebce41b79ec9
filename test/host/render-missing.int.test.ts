import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, readFile, readdir, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeBlender, type BlenderInfo } from '../../src/render-node/blender/probe';
import type { AppEvent } from '../../src/shared/contract/events';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { decodePng } from '../helpers/png-pixels';
import { startHost, type HostHarness } from './host-harness';

const blenderPath = requireBlender();

const done = (id: string) => (e: AppEvent) => e.name === 'submission.updated' && e.payload.id === id && ['done', 'failed', 'canceled'].includes(e.payload.phase);

describe.skipIf(!blenderPath)('host: frames of a job on this computer, against the local node and real Blender', () => {
  let blender: BlenderInfo;
  let work: string;
  let h: HostHarness;

  beforeAll(async () => {
    blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    work = await mkdtemp(join(tmpdir(), 'rd-host-missing-'));
    h = await startHost({ blender, localNodePort: 0 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('verifyFolder finds what is missing, renderMissing renders exactly that into the folder, and the frame strip shows each frame', { timeout: 240_000 }, async () => {
    const scene = join(work, 'shot.blend');
    await copyFile(await makeSampleScene(work, { frames: 5, missingTexture: false, name: 'host-missing.blend' }), scene);
    const [submitted] = await h.value('submissions.submit', { files: [{ path: scene }], renderConfig: { colorManagementPreset: 'default', sampleCount: 2, outputFormat: 'PNG' } });
    if (!submitted?.ok) throw new Error(JSON.stringify(submitted));
    const first = await h.waitFor(done(submitted.submissionId), 90_000);
    expect(first.name === 'submission.updated' && first.payload.phase).toBe('done');
    const jobId = first.name === 'submission.updated' ? first.payload.jobId! : '';

    const complete = await h.value('jobs.verifyFolder', { jobId });
    expect(complete).toMatchObject({ jobId, expected: 5, present: 5, missing: [], broken: [], cannotRender: null });
    const folder = complete.folder;
    const names = (await readdir(folder)).sort();
    expect(names).toEqual(['sample_0001.png', 'sample_0002.png', 'sample_0003.png', 'sample_0004.png', 'sample_0005.png']);
    const originals = await Promise.all(names.map((n) => readFile(join(folder, n))));

    const strip = await h.value('jobs.frames', { jobId });
    expect(strip.frames.map((f) => [f.frame, f.state, f.fileName, f.onDisk])).toEqual(names.map((n, i) => [i + 1, 'done', n, true]));
    for (const f of strip.frames) {
      const image = await h.value('jobs.frameImage', { jobId, frame: f.frame });
      if (!image.ok) throw new Error(`no picture of frame ${f.frame}: ${image.reason}`);
      expect(image.dataUrl).toMatch(/^data:image\/png;base64,/);
      expect(decodePng(Buffer.from(image.dataUrl.split(',')[1]!, 'base64')).width).toBe(64);
    }

    const refused = await h.call('jobs.renderMissing', { jobId });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error.message).toBe('Every frame of this job is in its folder; there is nothing to render.');

    await rm(join(folder, names[0]!));
    await rm(join(folder, names[3]!));
    await truncate(join(folder, names[2]!), 0);
    const check = await h.value('jobs.verifyFolder', { jobId });
    expect(check).toMatchObject({ folder, expected: 5, present: 2, missing: [1, 4], broken: [{ frame: 3, fileName: names[2], reason: 'the file is empty' }], downloadable: [1, 3, 4], cannotRender: null });

    const again = await h.value('jobs.renderMissing', { jobId });
    if (!again.ok) throw new Error(JSON.stringify(again));
    const second = await h.waitFor(done(again.submissionId), 90_000);
    expect(second.name === 'submission.updated' && second.payload.phase).toBe('done');
    const secondJob = second.name === 'submission.updated' ? second.payload.jobId! : '';
    expect(secondJob).not.toBe(jobId);

    expect(await h.value('jobs.verifyFolder', { jobId })).toMatchObject({ folder, present: 5, missing: [], broken: [] });
    expect((await readdir(folder)).sort()).toEqual(names);
    for (const [i, name] of names.entries()) {
      expect(decodePng(await readFile(join(folder, name))).data.equals(decodePng(originals[i]!).data), name).toBe(true);
    }
    const detail = await h.value('jobs.get', { jobId: secondJob });
    expect(detail.requestedConfig).toMatchObject({ frameRanges: ['1,3-4'], sampleCount: 2 });

    await rm(scene);
    await rm(join(folder, names[1]!));
    const gone = await h.value('jobs.verifyFolder', { jobId });
    expect(gone.missing).toEqual([2]);
    expect(gone.cannotRender).toBe(`The scene file shot.blend is no longer where it was sent from (${scene}).`);
    const blocked = await h.call('jobs.renderMissing', { jobId });
    expect(!blocked.ok && blocked.error.message).toBe(gone.cannotRender);
  });
});
