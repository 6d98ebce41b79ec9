import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readHandoverFile } from '../../../src/host/handover';
import { listenForBlender } from '../../../src/main/launch/blender-hand-over';
import type { ContractHandlers } from '../../../src/shared/contract';
import { blendBytes, tempDir } from '../../helpers/scene-files';

/** The app's calls the listener uses: one submission that became job-1, which completed and was downloaded. */
function fakeHandlers(submitted: string[]): ContractHandlers {
  const since = new Date(Date.now() - 20_000).toISOString();
  const summary = {
    status: 'completed',
    renderingSince: since,
    endedAt: new Date().toISOString(),
    waiting: null,
    running: false,
    framesSeen: null,
    completedFrames: 2,
    totalFrames: 2,
    hasPreview: true,
    previewKey: 'completed:2',
    failure: null,
    download: { state: 'done', dir: '/renders/shot-job1', filesDone: 2, filesTotal: 2, bytes: 10, error: null },
  };
  return {
    'submissions.submit': async ({ files }: { files: { path: string }[] }) => {
      submitted.push(...files.map((f) => f.path));
      return [{ ok: true, name: 'shot.blend', submissionId: 'sub-1' }];
    },
    'submissions.list': async () => [{ id: 'sub-1', jobId: 'job-1', phase: 'done' }],
    'jobs.get': async () => ({ summary }),
    'jobs.preview': async () => 'data:image/png;base64,iVBORw0KGgo=',
  } as unknown as ContractHandlers;
}

describe('the desktop app listens for the Blender add-on', () => {
  it('submits a handed-over scene, answers with its submission, and tells the add-on how it is doing', async () => {
    const configDir = await tempDir('rd-desktop-handover-');
    const scene = join(configDir, 'shot.blend');
    await writeFile(scene, blendBytes());
    const submitted: string[] = [];
    let shown = 0;
    const listener = await listenForBlender(configDir, { handlers: fakeHandlers(submitted), showWindow: () => (shown += 1) });
    const info = await readHandoverFile(configDir);
    expect(info?.url).toBe(listener?.info.url);
    const auth = { authorization: `Bearer ${info!.token}` };

    const answer = await fetch(info!.url, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ scene }) });
    expect(answer.status).toBe(202);
    expect(await answer.json()).toEqual({ accepted: true, submissionId: 'sub-1' });
    expect(submitted).toEqual([scene]);
    expect(shown).toBe(1);

    const progress = await fetch(`${info!.url}/submissions/sub-1`, { headers: auth });
    expect(progress.status).toBe(200);
    expect(await progress.json()).toMatchObject({ jobId: 'job-1', status: 'completed', completedFrames: 2, totalFrames: 2, clock: { state: 'ended', timeLeftSeconds: null }, framesDir: '/renders/shot-job1', preview: 'data:image/png;base64,iVBORw0KGgo=' });
    const unchanged = (await (await fetch(`${info!.url}/submissions/sub-1?seenPreview=completed%3A2`, { headers: auth })).json()) as { preview?: string };
    expect(unchanged.preview).toBeUndefined();
    expect((await fetch(`${info!.url}/submissions/sub-1`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetch(`${info!.url}/submissions/sub-1`, { headers: { ...auth, origin: 'http://evil.example' } })).status).toBe(403);
    expect((await fetch(`${info!.url}/submissions/sub-9`, { headers: auth })).status).toBe(404);

    await listener!.close();
    expect(await readHandoverFile(configDir)).toBeNull();
  });

  it('starts without the listener when handover.json cannot be written', async () => {
    const dir = await tempDir('rd-desktop-handover-');
    const notAFolder = join(dir, 'config');
    await writeFile(notAFolder, 'a file where the folder should be');
    expect(await listenForBlender(notAFolder, { handlers: fakeHandlers([]), showWindow: () => undefined })).toBeNull();
  });
});
