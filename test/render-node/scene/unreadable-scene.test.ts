import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlendError } from '../../../src/blend/reader';
import { severOutsidePaths } from '../../../src/blend/pack';
import { blenderInfo } from '../../helpers/blender-info';
import { endbReplacedByOverlongBlock, MUTATIONS, seededRandom } from '../../blend/helpers/blend-mutations';
import { SyntheticBlend } from '../../blend/helpers/synthetic-blend';
import { startTestNode, uploadBytes, waitForJob, type TestNode } from '../../helpers/node';
import { zipBytes } from '../../helpers/zip-bytes';

/**
 * A Blender that is never there: the node must refuse these scenes before it starts one (unit tests
 * also fail on any attempt to start a process).
 */
const NEVER_STARTED = blenderInfo({ path: '/nonexistent/renderdrop-test-blender' });

let t: TestNode;
let elsewhere: string;
let library: string;

beforeAll(async () => {
  elsewhere = await mkdtemp(join(tmpdir(), 'rd-elsewhere-'));
  library = join(elsewhere, 'secret-set.blend');
  const set = new SyntheticBlend();
  set.addImage({ name: 'Secret', path: '//secret.png' });
  await writeFile(library, set.build());
  t = await startTestNode({ blender: NEVER_STARTED });
});
afterAll(async () => {
  await t?.stop();
  await rm(elsewhere, { recursive: true, force: true });
});

/** A scene linking the library elsewhere on the node's disk by its absolute path. */
function sceneLinkingOutside(): Buffer {
  const scene = new SyntheticBlend();
  scene.addLibrary({ name: 'secret-set.blend', path: library });
  scene.addImage({ name: 'Wood', path: '//textures/wood.png' });
  return scene.build();
}

async function validateUpload(fileName: string, bytes: Buffer): Promise<any> {
  const slug = await uploadBytes(t, fileName, bytes);
  const job = (await t.call('POST', '/jobs', { slug })).json;
  await t.call('POST', `/jobs/${job.id}/validate`);
  return waitForJob(t, job.id, (j) => j.status !== 'validating' && j.status !== 'created', 30_000);
}

/** Whether the node's own severing refuses these bytes (tried on a copy elsewhere). */
async function readerRefuses(bytes: Buffer): Promise<boolean> {
  const dir = await mkdtemp(join(tmpdir(), 'rd-refuses-'));
  try {
    await writeFile(join(dir, 'shot.blend'), bytes);
    await severOutsidePaths(join(dir, 'shot.blend'), dir, { nowhere: '.nowhere', tempDir: dir });
    return false;
  } catch (error) {
    if (error instanceof BlendError) return true;
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function expectOneArtistLine(message: string): void {
  expect(message).not.toContain('\n');
  expect(message).not.toContain(t.dataDir);
  expect(message).not.toContain(library);
  expect(message).not.toContain('BlendFileError');
}

describe('a scene the reader cannot read is refused at validation, before any Blender starts', () => {
  it('the probe\'s file: ENDB replaced by an over-long block, linking a library elsewhere on disk (bare .blend)', async () => {
    const job = await validateUpload('shot.blend', endbReplacedByOverlongBlock(sceneLinkingOutside()));
    expect(job.status).toBe('failed');
    expect(job.failedReason).toMatchObject({ name: 'SceneUnreadable', type: 'scene' });
    expect(job.failedReason.message).toBe('shot.blend is damaged or is not a .blend Renderdrop can read. Open it in Blender, save it again and submit it again.');
    expectOneArtistLine(job.failedReason.message);
    expect(job.analysis ?? null).toBeNull();
  });

  it('the same file inside a zip, named by its path in the zip', async () => {
    const zip = zipBytes([{ name: 'shots/a.blend', data: endbReplacedByOverlongBlock(sceneLinkingOutside()) }]);
    const job = await validateUpload('bundle.zip', zip);
    expect(job.failedReason).toMatchObject({ name: 'SceneUnreadable', type: 'scene' });
    expect(job.failedReason.message).toMatch(/^shots\/a\.blend is damaged or is not a \.blend Renderdrop can read\./);
    expectOneArtistLine(job.failedReason.message);
  });

  it('a damaged library inside the zip, which Blender would open and follow, refuses the scene too', async () => {
    const scene = new SyntheticBlend();
    scene.addLibrary({ name: 'set.blend', path: '//libs/set.blend' });
    const damaged = new SyntheticBlend();
    damaged.addLibrary({ name: 'secret-set.blend', path: library });
    const zip = zipBytes([
      { name: 'scene.blend', data: scene.build() },
      { name: 'libs/set.blend', data: endbReplacedByOverlongBlock(damaged.build(), 'LI') },
    ]);
    const job = await validateUpload('bundle.zip', zip);
    expect(job.failedReason).toMatchObject({ name: 'SceneUnreadable', type: 'scene' });
    expect(job.failedReason.message).toMatch(/^libs\/set\.blend, a library the scene links, is damaged/);
    expectOneArtistLine(job.failedReason.message);
  });

  it('a file that is not a .blend at all is named as such', async () => {
    const job = await validateUpload('notes.blend', Buffer.from('these are my notes, not a scene\n'.repeat(20)));
    expect(job.failedReason).toMatchObject({ name: 'NotABlendFile', type: 'scene' });
    expectOneArtistLine(job.failedReason.message);
  });

  it('every kind of damage that makes the reader refuse a scene ends in one line, never an internal error', async () => {
    const random = seededRandom(4242);
    const base = sceneLinkingOutside();
    const seen = new Set<string>();
    for (const [kind, mutate] of Object.entries(MUTATIONS)) {
      for (let i = 0; i < 3; i++) {
        const bytes = mutate(base, random);
        if (!(await readerRefuses(bytes))) continue;
        const job = await validateUpload('shot.blend', bytes);
        expect(job.status).toBe('failed');
        expect(job.failedReason.name, `${kind}: ${JSON.stringify(job.failedReason)}`).toMatch(/^(SceneUnreadable|NotABlendFile)$/);
        expectOneArtistLine(job.failedReason.message);
        seen.add(kind);
      }
    }
    expect(seen.size).toBeGreaterThan(5);
    expect(await readdir(elsewhere)).toEqual(['secret-set.blend']);
  });
});
