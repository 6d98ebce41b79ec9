import { afterEach, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppEvent } from '../../../src/shared/contract/events';
import { blendBytes, tempDir } from '../../helpers/scene-files';
import { startFarmHost } from '../host-harness';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe('host: the frames of a job on a farm that is not a Renderdrop node', () => {
  it('lists the frames the farm offers for download when it has no frames list of its own (asked once), and finds its undecodable files unusable', async () => {
    const { h, fake } = await startFarmHost(cleanup, { frames: 3 });
    const scene = join(await tempDir('rd-host-frames-'), 'shot.blend');
    await writeFile(scene, blendBytes(20_000));
    await h.value('submissions.submit', { files: [{ path: scene }], renderConfig: { colorManagementPreset: 'default', frameRanges: ['1-3'] } });
    const done = await h.waitFor(
      (e): e is Extract<AppEvent, { name: 'job.updated' }> => e.name === 'job.updated' && e.payload.status === 'completed' && e.payload.download.state === 'done',
      20_000,
    );
    const jobId = done.payload.id;
    const strip = await h.value('jobs.frames', { jobId });
    expect(strip.frames.map((f) => [f.frame, f.state, f.fileName])).toEqual([
      [1, 'done', 'frame_0001.png'],
      [2, 'done', 'frame_0002.png'],
      [3, 'done', 'frame_0003.png'],
    ]);
    expect(fake.count('GET', new RegExp(`/node/jobs/${jobId}/frames$`)), 'once by the frame strip, once by the automatic download while the job rendered').toBe(2);
    const check = await h.value('jobs.verifyFolder', { jobId });
    expect(check).toMatchObject({ jobId, folder: done.payload.download.dir, expected: 3, present: 0, missing: [], downloadable: [1, 2, 3], cannotRender: null });
    expect(check.broken.map((b) => b.frame)).toEqual([1, 2, 3]);
    expect(check.broken[0]!.reason).toBe('its header is missing or damaged');
  });
});
