import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, rm, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { traceScene } from '../../../../src/blend/pack/trace-scene';
import { writeBundle } from '../../../../src/blend/pack/write-bundle';
import { ApiClient } from '../../../../src/core/api/api-client';
import { AbortError, PackingError } from '../../../../src/core/errors';
import { SubmissionJournal } from '../../../../src/core/journal/submission-journal';
import type { SubmissionRecord, SubmissionStep } from '../../../../src/core/journal/submission-record';
import type { SubmissionEvents } from '../../../../src/core/lifecycle/lifecycle-events';
import type { LifecycleStop } from '../../../../src/core/lifecycle/lifecycle-states';
import { recordForFile } from '../../../../src/core/lifecycle/record-for-file';
import { SubmissionLifecycle, type ClaimedSubmission } from '../../../../src/core/lifecycle/submission-lifecycle';
import { pollingWaiter } from '../../../../src/core/lifecycle/wait-for-job';
import { hashTree, readZip, writeTree } from '../../../blend/helpers/scene-folder';
import { SyntheticBlend } from '../../../blend/helpers/synthetic-blend';
import { FakeApi } from '../../../helpers/fake-api-server';
import { blendBytes, tempDir, zipBytes } from '../../../helpers/scene-files';

const P = '/api/external/v1';
let api: FakeApi;
let client: ApiClient;
let root: string;
let proj: string;
let scene: string;
let dataDir: string;
let journal: SubmissionJournal;

/** A scene using a texture beside it, a big file beside it, a file outside its folder and one that is missing. */
async function writeProject(): Promise<void> {
  const blend = new SyntheticBlend();
  blend.addImage({ name: 'Grid', path: '//textures/grid.png' });
  blend.addImage({ name: 'Big', path: '//textures/big.exr' });
  blend.addImage({ name: 'Stamp', path: '//../shared/stamp.png' });
  blend.addImage({ name: 'Gone', path: '//textures/missing.png' });
  await writeTree(root, {
    'proj/shot.blend': blend.build(),
    'proj/textures/grid.png': Buffer.from('89504e470d0a1a0a0001', 'hex'),
    'proj/textures/big.exr': randomBytes(3 * 1024 * 1024),
    'shared/stamp.png': Buffer.from('89504e470d0a1a0a0002', 'hex'),
  });
}

beforeEach(async () => {
  api = await FakeApi.start();
  client = new ApiClient({ baseUrl: api.server.url, apiKey: 'RJ-test', sleep: async () => undefined });
  root = await tempDir('rd-pack-step-');
  proj = join(root, 'proj');
  scene = join(proj, 'shot.blend');
  dataDir = await tempDir();
  journal = new SubmissionJournal({ dataDir });
  await writeProject();
});
afterEach(async () => {
  api.server.close();
  await rm(root, { recursive: true, force: true });
});

/** A new record; the project is `root` (the stamp in `shared/` beside the scene's folder belongs to it). */
async function newRecord(path = scene, pack?: boolean): Promise<SubmissionRecord> {
  return (await recordForFile(journal, { filePath: path, baseUrl: api.server.url, profileId: null, project: root, ...(pack !== undefined ? { pack } : {}) })).record;
}

/** Claims the record, advances it to `until` (default: the render request) and releases it. */
async function run(record: SubmissionRecord, o: { until?: LifecycleStop; signal?: AbortSignal; watch?: (claimed: ClaimedSubmission) => void } = {}): Promise<SubmissionRecord> {
  const claimed = await new SubmissionLifecycle({ client, journal, waitForJob: pollingWaiter(client, { intervalMs: 0 }) }).claim(record);
  o.watch?.(claimed);
  try {
    return await claimed.advance({ until: o.until ?? 'render-requested', ...(o.signal ? { signal: o.signal } : {}) });
  } finally {
    claimed.release();
  }
}

/** Runs until the first bundle entry is written, then stops as if the process were killed while packing. */
async function stopWhilePacking(record: SubmissionRecord): Promise<SubmissionRecord> {
  const controller = new AbortController();
  const watch = (claimed: ClaimedSubmission) =>
    void claimed.on('pack', (p) => {
      if (p.filesDone >= 1) controller.abort();
    });
  await expect(run(record, { signal: controller.signal, watch })).rejects.toSatisfy((e) => e instanceof AbortError || (e instanceof Error && e.name === 'AbortError'));
  return (await journal.get(record.id))!;
}

function onlyUpload() {
  expect(api.uploads.size).toBe(1);
  return [...api.uploads.values()][0]!;
}

async function sha256(path: string): Promise<string> {
  return createHash('sha256').update(await readFile(path)).digest('hex');
}

describe('packing in the submission lifecycle', () => {
  it('packs a .blend with the files it uses in the data folder, uploads the bundle, and deletes it once the job exists', async () => {
    const before = await hashTree(root);
    const steps: SubmissionStep[] = [];
    const done = await run(await newRecord(), { watch: (c) => void c.on('step', ({ record }) => steps.push(record.step)) });
    expect(done.history.map((h) => h.step).slice(0, 5)).toEqual(['preflighted', 'traced', 'packing', 'packed', 'upload-target']);
    expect(done.packing).toMatchObject({ bundled: true, files: 4 });
    expect(done.packing!.places.filter((p) => p.missing).map((p) => p.path)).toEqual([join(proj, 'textures', 'missing.png')]);
    expect(done.bundle).toMatchObject({ path: join(dataDir, 'bundles', `${done.id}.zip`) });
    const upload = onlyUpload();
    expect(upload).toMatchObject({ fileName: 'shot.zip', fileType: 'zip', bytes: done.bundle!.size, sha256: done.bundle!.sha256 });
    await expect(stat(done.bundle!.path)).rejects.toThrow();
    expect(await readdir(join(dataDir, 'bundles'))).toEqual([]);
    expect(await hashTree(root)).toEqual(before);
  });

  it('stops at `traced` knowing what travels and what is missing, before anything is packed or sent', async () => {
    const record = await run(await newRecord(), { until: 'traced' });
    expect(record.step).toBe('traced');
    expect(record.packing?.places.find((p) => p.owner === 'Gone')).toMatchObject({ travels: false, missing: 'not-found' });
    expect(api.count('POST', `${P}/uploads`)).toBe(0);
    await expect(readdir(join(dataDir, 'bundles'))).rejects.toThrow();
  });

  it('packs the files as they are when it goes on from `traced` (a missing file put back meanwhile travels)', async () => {
    const record = await run(await newRecord(), { until: 'traced' });
    await writeFile(join(proj, 'textures', 'missing.png'), 'now here');
    const done = await run(record);
    expect(done.packing!.places.filter((p) => p.missing)).toEqual([]);
    expect(done.packing!.files).toBe(5);
  });

  it('packs the same bytes again after being stopped while packing, and sends them once', async () => {
    const stopped = await stopWhilePacking(await newRecord());
    expect(stopped.step).toBe('packing');
    expect(stopped.bundle).toBeNull();
    const done = await run(stopped);
    const reference = join(await tempDir(), 'reference.zip');
    await writeBundle(await traceScene(scene), reference);
    expect(done.bundle!.sha256).toBe(await sha256(reference));
    expect((await readZip(reference)).map((e) => e.name)).toEqual(['shot.blend', expect.stringMatching(/^_external\/.*\/shared\/stamp\.png$/), 'textures/big.exr', 'textures/grid.png']);
    expect(onlyUpload().sha256).toBe(done.bundle!.sha256);
    expect(api.jobs.size).toBe(1);
  });

  it('stops, saying so, rather than send other bytes when a file changed after packing began', async () => {
    const stopped = await stopWhilePacking(await newRecord());
    const grid = join(proj, 'textures', 'grid.png');
    await writeFile(grid, Buffer.from('89504e470d0a1a0a0003', 'hex'));
    await utimes(grid, new Date(), new Date(Date.now() + 5_000));
    await expect(run(stopped)).rejects.toBeInstanceOf(PackingError);
    const ended = (await journal.get(stopped.id))!;
    expect(ended).toMatchObject({ ending: 'failed', error: { kind: 'packing' } });
    expect(ended.error!.message).toMatch(/changed after packing began.*Nothing was sent\. Submit the scene again/);
    expect(api.uploads.size).toBe(0);
    expect(await readdir(join(dataDir, 'bundles'))).toEqual([]);
  });

  it('packs a bundle that is gone before its upload again, to the same bytes', async () => {
    const controller = new AbortController();
    const watch = (claimed: ClaimedSubmission) =>
      void claimed.on('step', ({ record }) => {
        if (record.step === 'packed') controller.abort();
      });
    const record = await newRecord();
    await expect(run(record, { signal: controller.signal, watch })).rejects.toBeInstanceOf(AbortError);
    const packed = (await journal.get(record.id))!;
    await rm(packed.bundle!.path);
    const notices: SubmissionEvents['notice'][] = [];
    const done = await run(packed, { watch: (c) => void c.on('notice', (n) => notices.push(n)) });
    expect(onlyUpload().sha256).toBe(packed.bundle!.sha256);
    expect(done.bundle).toEqual(packed.bundle);
    expect(notices.map((n) => n.message)).toContain('The bundle of shot.blend was gone; it was packed again with the same content.');
  });

  it('refuses a bundle planned at 5 GiB or more before writing or sending anything, in one line', async () => {
    const big = join(proj, 'textures', 'big.exr');
    await truncate(big, 5 * 1024 ** 3);
    const steps: SubmissionStep[] = [];
    const record = await newRecord();
    await expect(run(record, { watch: (c) => void c.on('step', ({ record: r }) => steps.push(r.step)) })).rejects.toMatchObject({ kind: 'packing', code: 'too-large' });
    const ended = (await journal.get(record.id))!;
    expect(ended).toMatchObject({ ending: 'failed', bundle: null, error: { kind: 'packing' } });
    expect(ended.history.map((h) => h.step)).not.toContain('packing');
    expect(steps).not.toContain('packing');
    expect(ended.error!.message).toMatch(
      new RegExp(
        `^shot\\.blend and the files it uses would make a bundle of up to 5\\.4 GB \\(the largest file: ${big.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, 5\\.4 GB\\), and uploads must be smaller than 5 GiB\\. Nothing was packed or sent\\. In Blender, free the bakes and caches .*; or render it on a farm that takes bigger uploads\\.$`,
      ),
    );
    expect(ended.error!.message).not.toContain('\n');
    expect(api.count('POST', `${P}/uploads`)).toBe(0);
    expect(api.uploads.size).toBe(0);
    await expect(readdir(join(dataDir, 'bundles'))).rejects.toThrow();
  });

  it('sends a .blend alone when packing is off', async () => {
    const done = await run(await newRecord(scene, false));
    expect(done.history.map((h) => h.step).slice(0, 3)).toEqual(['preflighted', 'packed', 'upload-target']);
    expect([done.packing, done.bundle]).toEqual([null, null]);
    expect(onlyUpload()).toMatchObject({ fileName: 'shot.blend', fileType: 'blend', sha256: await sha256(scene) });
  });

  it('sends a .blend that needs no other file alone, after saying what is missing', async () => {
    const alone = new SyntheticBlend();
    alone.addImage({ name: 'Gone', path: '//nothing/here.png' });
    const path = join(proj, 'alone.blend');
    await writeFile(path, alone.build());
    const traced = await run(await newRecord(path), { until: 'traced' });
    expect(traced.packing).toMatchObject({ bundled: false, files: 1 });
    const done = await run(traced);
    expect(done.bundle).toBeNull();
    expect(onlyUpload()).toMatchObject({ fileName: 'alone.blend', sha256: await sha256(path) });
  });

  it('sends a zip the artist made as it is', async () => {
    const zip = join(proj, 'made.zip');
    await writeFile(zip, zipBytes([{ name: 'made.blend', data: blendBytes(512) }]));
    const done = await run(await newRecord(zip));
    expect(done.history.map((h) => h.step).slice(0, 2)).toEqual(['preflighted', 'packed']);
    expect(onlyUpload()).toMatchObject({ fileName: 'made.zip', fileType: 'zip', sha256: await sha256(zip) });
  });

  it('sends a .blend the tracer cannot read alone, saying why', async () => {
    const odd = join(proj, 'odd.blend');
    await writeFile(odd, blendBytes(4096));
    const notices: SubmissionEvents['notice'][] = [];
    const done = await run(await newRecord(odd), { watch: (c) => void c.on('notice', (n) => notices.push(n)) });
    expect(done.packing).toBeNull();
    expect(notices[0]!.message).toMatch(/^Renderdrop could not read which files odd\.blend uses \(.+\); sending it alone\.$/);
    expect(onlyUpload().fileName).toBe('odd.blend');
  });
});
