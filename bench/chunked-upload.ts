import { randomBytes } from 'node:crypto';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { traceScene, writeBundle } from '../src/blend/pack';
import { ApiClient } from '../src/core/api';
import { uploadChunked, uploadFile } from '../src/core/upload';
import { createKey } from '../src/render-node/store/keys';
import { WorkerChunks } from '../src/render-node/worker/chunk-cache';
import { requireBlender } from '../test/helpers/blender';
import { checkChunkedUpload, type ChunkedUploadFigures, refuseImpossible } from './lib/checks';
import { startBenchNode, type BenchNode } from './lib/bench-node';
import { onCleanup, runBench, throwIfInterrupted } from './lib/cleanup';
import { assertSucceeded, runMeasured } from './lib/measure';
import { intOption, sizeLabel, sizeOption } from './lib/options';
import { fixed, loadNote, median, printTable, writeResults } from './lib/report';
import { scratchParent } from './lib/scratch-space';
import { startThrottledLink } from './lib/throttle-proxy';

const MiB = 1024 ** 2;

/** The whole project: a tenth is the .blend's packed data, the rest "4K textures" of up to 64 MiB (4096 x 4096 RGBA). */
const projectSize = sizeOption('size', '1G');
/** First submissions of each kind, alternating which goes first. */
const runs = intOption('runs', 2);
/** The slow uplink of the re-submit comparison. */
const mbit = intOption('mbit', 100);

interface Bundle {
  path: string;
  size: number;
  sha256: string;
}

/** Writes `size` random bytes (as incompressible as packed pixels or a compressed texture). */
async function randomFile(path: string, size: number): Promise<void> {
  const handle = await open(path, 'w');
  try {
    for (let written = 0; written < size; ) {
      throwIfInterrupted();
      const block = randomBytes(Math.min(4 * MiB, size - written));
      await handle.write(block, 0, block.length, written);
      written += block.length;
    }
  } finally {
    await handle.close();
  }
}

async function blender(path: string, args: string[], home: string): Promise<void> {
  const made = await runMeasured(path, ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', ...args], { env: { ...process.env, HOME: home } });
  assertSucceeded('make-chunk-project.py', made);
}

/** The project: lib.blend, scene.blend (400 objects, packed data, a linked library) and its textures. */
async function makeProject(blenderPath: string, work: string): Promise<{ scene: string; textures: string[] }> {
  const proj = join(work, 'proj');
  await mkdir(join(proj, 'textures'), { recursive: true });
  const sound = join(work, 'packed.wav');
  await randomFile(sound, Math.round(projectSize / 10));
  const textureBytes = Math.min(64 * MiB, Math.round((projectSize * 0.9) / Math.max(1, Math.round((projectSize * 0.9) / (64 * MiB)))));
  const count = Math.max(1, Math.round((projectSize * 0.9) / textureBytes));
  const textures = Array.from({ length: count }, (_, i) => join(proj, 'textures', `paint_${i}.png`));
  for (const texture of textures) await randomFile(texture, textureBytes);
  await blender(blenderPath, ['--python', join(import.meta.dirname, 'lib', 'make-chunk-project.py'), '--', 'make', proj, sound, ...textures], join(work, 'home'));
  await rm(sound);
  return { scene: join(proj, 'scene.blend'), textures };
}

/** Packs the scene as the submission does (hashed as written): stored for a node that takes chunks, else deflated where it pays. */
async function pack(scene: string, out: string, storeOnly: boolean): Promise<Bundle> {
  const plan = await traceScene(scene);
  const written = await writeBundle(plan, out, { storeOnly, sha256: true });
  return { path: out, size: written.bytes, sha256: written.sha256 };
}

async function seconds<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await work();
  return [(performance.now() - started) / 1000, value];
}

/** Today's path: the bundle, then one PUT to a presigned URL. */
async function zipAndPut(client: ApiClient, scene: string, out: string): Promise<Bundle> {
  const bundle = await pack(scene, out, false);
  await uploadFile({ filePath: bundle.path, size: bundle.size, fileType: 'zip', target: await client.createUpload({ fileName: 'scene.zip', fileType: 'zip' }) });
  return bundle;
}

/**
 * Renderdrop's path: the bundle stored, then sent as a submission does: `firstTime` when the project
 * was never sent to this node in chunks (whole and uncut; the node cuts it), else in chunks.
 */
async function packAndChunk(client: ApiClient, scene: string, out: string, firstTime: boolean) {
  const bundle = await pack(scene, out, true);
  const sent = await uploadChunked({ api: client, filePath: bundle.path, fileName: 'scene.zip', fileType: 'zip', size: bundle.size, sha256: bundle.sha256, firstTime });
  return { bundle, sent };
}

/** Waits until the node has cut and stored the chunks of what `key` sent whole (outside any timing). */
async function settled(bench: BenchNode, key: { info: { id: string } }): Promise<void> {
  await bench.test.node.ctx.chunkStore!.settled(key.info.id, 300_000);
}

/** A render worker's fetch of an upload's scene in chunks, as from the node (its chunk list and ranges of the stored file), into `chunks`. */
async function workerFetch(bench: BenchNode, chunks: WorkerChunks, slug: string) {
  const list = bench.test.node.ctx.chunkStore!.chunksOfUpload(slug);
  if (list === null) throw new Error(`the node kept no chunk list for upload ${slug}`);
  const file = await open(bench.test.node.ctx.storage.uploadPath(slug), 'r');
  try {
    const range = async (offset: number, length: number) => {
      const bytes = Buffer.alloc(length);
      await file.read(bytes, 0, length, offset);
      return bytes;
    };
    return await chunks.assemble(list, { chunks: async () => list, range }, async () => undefined);
  } finally {
    await file.close();
  }
}

function keyClient(bench: BenchNode, name: string) {
  const key = createKey(bench.test.node.ctx.db, name);
  return { key, client: new ApiClient({ baseUrl: bench.test.url, apiKey: key.key }) };
}

async function main(): Promise<void> {
  const blenderPath = requireBlender();
  if (!blenderPath) throw new Error('Blender is needed to make and re-save the project (install it, or set BLENDER_PATH).');
  const parent = await scratchParent('data-parent', projectSize * 6);
  const work = join(parent, `rd-bench-chunked-${process.pid}`);
  const removeWork = onCleanup(() => rm(work, { recursive: true, force: true }));
  await mkdir(work, { recursive: true });
  const bench = await startBenchNode(parent);
  try {
    const { scene, textures } = await makeProject(blenderPath, work);
    const zipSeconds: number[] = [];
    const chunkSeconds: number[] = [];
    let owner: ApiClient | null = null;
    let bundleBytes = 0;
    let firstSlug = '';
    for (let run = 0; run < runs; run++) {
      const order = run % 2 === 0 ? (['zip', 'chunked'] as const) : (['chunked', 'zip'] as const);
      for (const kind of order) {
        throwIfInterrupted();
        const out = join(work, `first-${kind}-${run}.zip`);
        if (kind === 'zip') zipSeconds.push((await seconds(() => zipAndPut(bench.client, scene, out)))[0]);
        else {
          const fresh = keyClient(bench, `first-${run}`);
          owner = fresh.client;
          const [time, result] = await seconds(() => packAndChunk(owner!, scene, out, true));
          await settled(bench, fresh.key);
          chunkSeconds.push(time);
          bundleBytes = result.bundle.size;
          firstSlug = result.sent.slug;
          if (result.sent.bytesReused > result.bundle.size * 0.01) throw new Error(`a first submission with a fresh key did not send ${result.sent.bytesReused} of its bytes`);
        }
        await rm(out, { force: true });
      }
    }

    await blender(blenderPath, [scene, '--python', join(import.meta.dirname, 'lib', 'make-chunk-project.py'), '--', 'move'], join(work, 'home'));
    const moved = await packAndChunk(owner!, scene, join(work, 'moved.zip'), false);
    const workerChunks = new WorkerChunks(join(work, 'worker-chunks'));
    await workerFetch(bench, workerChunks, firstSlug);
    const secondFetch = await workerFetch(bench, workerChunks, moved.sent.slug);
    await randomFile(textures[0]!, (await stat(textures[0]!)).size);
    const repainted = await packAndChunk(owner!, scene, join(work, 'repainted.zip'), false);

    await blender(blenderPath, [scene, '--python', join(import.meta.dirname, 'lib', 'make-chunk-project.py'), '--', 'move'], join(work, 'home'));
    const link = await startThrottledLink(bench.test.url, (mbit * 1e6) / 8);
    const closeLink = onCleanup(() => link.close());
    const slowKey = createKey(bench.test.node.ctx.db, 'slow');
    const slowOwner = new ApiClient({ baseUrl: link.url, apiKey: slowKey.key });
    await packAndChunk(new ApiClient({ baseUrl: bench.test.url, apiKey: slowKey.key }), scene, join(work, 'slow-first.zip'), true);
    await settled(bench, slowKey);
    await blender(blenderPath, [scene, '--python', join(import.meta.dirname, 'lib', 'make-chunk-project.py'), '--', 'move'], join(work, 'home'));
    const slowBundle = await pack(scene, join(work, 'slow.zip'), true);
    const [slowChunkedSeconds, slowSent] = await seconds(() => uploadChunked({ api: slowOwner, filePath: slowBundle.path, fileName: 'scene.zip', fileType: 'zip', size: slowBundle.size, sha256: slowBundle.sha256, firstTime: false }));
    const [slowFullSeconds] = await seconds(async () =>
      uploadFile({ filePath: slowBundle.path, size: slowBundle.size, fileType: 'zip', target: await slowOwner.createUpload({ fileName: 'scene.zip', fileType: 'zip' }) }),
    );
    await closeLink();

    const figures: ChunkedUploadFigures = {
      runs,
      mbit,
      firstZipSeconds: zipSeconds,
      firstChunkedSeconds: chunkSeconds,
      bundleBytes,
      movedSent: moved.sent.bytesSent,
      movedReused: moved.sent.bytesReused,
      textureBytes: (await stat(textures[0]!)).size,
      repaintSent: repainted.sent.bytesSent,
      repaintReused: repainted.sent.bytesReused,
      slowFullSeconds,
      slowChunkedSeconds,
      slowChunkedSent: slowSent.bytesSent,
      workerSceneBytes: moved.bundle.size,
      workerFetched: secondFetch.bytesFetched,
    };
    refuseImpossible('chunked-upload', checkChunkedUpload(figures));
    const firstRatio = median(chunkSeconds) / median(zipSeconds);
    const movedShare = figures.movedSent / bundleBytes;
    const repaintLimit = 1.2 * figures.textureBytes + 0.02 * bundleBytes;
    const slowSpeedup = slowFullSeconds / slowChunkedSeconds;
    const workerShare = figures.workerFetched / figures.workerSceneBytes;
    const goals = { firstSubmission: firstRatio <= 1.05, resaved: movedShare <= 0.05, repainted: figures.repaintSent <= repaintLimit, slowLink: slowSpeedup >= 5, workerFetch: workerShare <= 0.1 };
    printTable(
      `chunked-upload: a ${sizeLabel(projectSize)} project (bundle ${sizeLabel(bundleBytes)}), ${runs} first submissions of each kind; ${loadNote()}`,
      ['case', 'Renderdrop chunks', 'reference', 'ratio', 'goal', 'met'],
      [
        ['first submission, loopback (pack + upload)', `${fixed(median(chunkSeconds))} s`, `zip + PUT ${fixed(median(zipSeconds))} s`, fixed(firstRatio, 3), '<= 1.05', String(goals.firstSubmission)],
        ['.blend re-saved by Blender, one object moved', `${sizeLabel(figures.movedSent)} sent`, `bundle ${sizeLabel(bundleBytes)}`, fixed(movedShare, 4), '<= 0.05', String(goals.resaved)],
        ['one texture repainted', `${sizeLabel(figures.repaintSent)} sent`, `texture ${sizeLabel(figures.textureBytes)}`, fixed(figures.repaintSent / figures.textureBytes, 3), `<= ${sizeLabel(repaintLimit)}`, String(goals.repainted)],
        ["a worker's fetch of the re-saved scene", `${sizeLabel(figures.workerFetched)} fetched`, `scene ${sizeLabel(figures.workerSceneBytes)}`, fixed(workerShare, 4), '<= 0.1', String(goals.workerFetch)],
        [`re-submit upload at ${mbit} Mbit/s`, `${fixed(slowChunkedSeconds)} s`, `full PUT ${fixed(slowFullSeconds)} s`, `${fixed(slowSpeedup, 1)}x faster`, '>= 5x', String(goals.slowLink)],
      ],
    );
    await writeResults('chunked-upload', { projectSize, runs, mbit, figures, ratios: { firstRatio, movedShare, slowSpeedup, workerShare }, goals });
  } finally {
    await bench.stop();
    await removeWork();
  }
}

await runBench(main);
