import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SubmissionJournal } from '../../../src/core/journal/submission-journal';
import { ProjectRoots } from '../../../src/core/packing/project-roots';
import type { AppEvent } from '../../../src/shared/contract/events';
import type { SubmissionView } from '../../../src/shared/contract/submission-views';
import { readZip, writeTree } from '../../blend/helpers/scene-folder';
import { SyntheticBlend } from '../../blend/helpers/synthetic-blend';
import type { FakeApi } from '../../helpers/fake-api-server';
import { tempDir } from '../../helpers/scene-files';
import { startFarmHost, type HostHarness } from '../host-harness';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

function viewOf(id: string, phase: SubmissionView['phase']) {
  return (e: AppEvent): e is Extract<AppEvent, { name: 'submission.updated' }> => e.name === 'submission.updated' && e.payload.id === id && e.payload.phase === phase;
}

/** A scene naming /etc/passwd and a key in a (fake) home folder by absolute path, beside a texture of its own. */
async function writeProject(): Promise<{ root: string; scene: string; key: string }> {
  const root = await tempDir('rd-host-private-');
  const key = join(root, 'home', '.ssh', 'id_ed25519');
  const blend = new SyntheticBlend();
  blend.addImage({ name: 'Grid', path: '//textures/grid.png' });
  blend.addImage({ name: 'Users', path: '/etc/passwd' });
  blend.addImage({ name: 'Key', path: key });
  await writeTree(root, { 'proj/shot.blend': blend.build(), 'proj/textures/grid.png': 'png', 'home/.ssh/id_ed25519': 'fake key' });
  return { root, scene: join(root, 'proj', 'shot.blend'), key };
}

async function submitPath(h: HostHarness, path: string): Promise<string> {
  const [result] = await h.value('submissions.submit', { files: [{ path }] });
  if (!result?.ok) throw new Error(`submit failed: ${JSON.stringify(result)}`);
  return result.submissionId;
}

async function uploadedEntries(fake: FakeApi, dir: string): Promise<string[]> {
  const [upload] = [...fake.uploads.values()];
  if (!upload?.data) throw new Error('nothing was uploaded');
  const zip = join(dir, 'uploaded.zip');
  await writeFile(zip, upload.data);
  return (await readZip(zip)).map((e) => e.name).sort();
}

describe('host: files outside the scene\'s folder that look private', () => {
  it('holds the scene before upload, listing them apart from missing files, and sends nothing meanwhile', async () => {
    const { scene, key } = await writeProject();
    const { h, fake } = await startFarmHost(cleanup, { keepBodies: true });
    const id = await submitPath(h, scene);
    const held = await h.waitFor(viewOf(id, 'missing-files'));
    expect(held.payload.packing?.missing).toEqual([]);
    expect(held.payload.packing?.privateFiles).toEqual([
      { path: '/etc/passwd', kind: 'image', owner: 'Users', why: 'outside the project, in /etc, a system folder', allowed: false },
      { path: key, kind: 'image', owner: 'Key', why: "outside the project, in .ssh, a folder of keys, passwords, settings or a browser's profile", allowed: false },
    ]);
    expect(held.payload.packing?.project).toBe(dirname(scene));
    expect(held.payload.packing?.suggestedProject, 'no project is offered around secret places').toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fake.uploads.size).toBe(0);
  });

  it('"Leave them out" uploads a bundle without them', async () => {
    const { root, scene } = await writeProject();
    const { h, fake } = await startFarmHost(cleanup, { keepBodies: true });
    const id = await submitPath(h, scene);
    await h.waitFor(viewOf(id, 'missing-files'));
    await h.value('submissions.continue', { submissionId: id, privateFiles: 'leave-out' });
    await h.waitFor(viewOf(id, 'review'));
    expect(await uploadedEntries(fake, root)).toEqual(['shot.blend', 'textures/grid.png']);
    expect((await new SubmissionJournal({ dataDir: h.dir }).get(id))?.allowOutside).toBeUndefined();
  });

  it('continuing without a choice leaves them out too', async () => {
    const { root, scene } = await writeProject();
    const { h, fake } = await startFarmHost(cleanup, { keepBodies: true });
    const id = await submitPath(h, scene);
    await h.waitFor(viewOf(id, 'missing-files'));
    await h.value('submissions.continue', { submissionId: id });
    await h.waitFor(viewOf(id, 'review'));
    expect(await uploadedEntries(fake, root)).toEqual(['shot.blend', 'textures/grid.png']);
  });

  it('"Send them anyway" uploads them with the scene, and the card says they were allowed', async () => {
    const { root, scene, key } = await writeProject();
    const { h, fake } = await startFarmHost(cleanup, { keepBodies: true });
    const id = await submitPath(h, scene);
    await h.waitFor(viewOf(id, 'missing-files'));
    await h.value('submissions.continue', { submissionId: id, privateFiles: 'send' });
    const review = await h.waitFor(viewOf(id, 'review'));
    expect(await uploadedEntries(fake, root)).toEqual(['_external/etc/passwd', `_external${key}`, 'shot.blend', 'textures/grid.png'].sort());
    expect(review.payload.packing?.privateFiles?.map((f) => [f.path, f.allowed])).toEqual([
      ['/etc/passwd', true],
      [key, true],
    ]);
  });

  it('offers the show around a shot whose assets sit beside its folder; taking it sends them and is remembered for the scene', async () => {
    const root = await tempDir('rd-host-show-');
    const blend = new SyntheticBlend();
    blend.addImage({ name: 'Wall', path: '//../../assets/wall.png' });
    await writeTree(root, { 'show/shots/sh010/sh010.blend': blend.build(), 'show/assets/wall.png': 'png' });
    const scene = join(root, 'show', 'shots', 'sh010', 'sh010.blend');
    const { h, fake } = await startFarmHost(cleanup, { keepBodies: true });
    const id = await submitPath(h, scene);
    const held = await h.waitFor(viewOf(id, 'missing-files'));
    expect(held.payload.packing?.privateFiles).toEqual([{ path: join(root, 'show', 'assets', 'wall.png'), kind: 'image', owner: 'Wall', why: 'outside the project', allowed: false }]);
    expect(held.payload.packing?.suggestedProject).toBe(join(root, 'show'));
    await expect(h.value('submissions.continue', { submissionId: id, project: root })).rejects.toThrow(/is not the project Renderdrop offered/);
    await h.value('submissions.continue', { submissionId: id, project: join(root, 'show') });
    await h.waitFor(viewOf(id, 'review'));
    expect(await uploadedEntries(fake, root)).toEqual([`_external${join(root, 'show', 'assets', 'wall.png')}`, 'sh010.blend']);
    expect(await new ProjectRoots(h.dir).forScene(scene)).toBe(join(root, 'show'));

    const again = await submitPath(h, scene);
    const review = await h.waitFor(viewOf(again, 'review'));
    expect(review.payload.packing?.privateFiles).toBeUndefined();
  });
});
