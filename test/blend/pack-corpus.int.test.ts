import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BundlePlan } from '../../src/blend/pack/bundle-plan';
import { traceScene } from '../../src/blend/pack/trace-scene';
import { writeBundle } from '../../src/blend/pack/write-bundle';
import { probeBlender } from '../../src/render-node/blender/probe';
import { blendersUnderTest } from '../helpers/blenders';
import { startTestNode, uploadBytes, waitForJob, type TestNode } from '../helpers/node';
import { blenderPathLists, makePackCorpus, renderInPlace, type PackCorpus } from '../helpers/pack-corpus';
import { decodePng, hasColour } from '../helpers/png-pixels';
import { hashTree, readZip } from './helpers/scene-folder';

/**
 * How Blender shows a stored path once it has opened the file: on macOS and Linux it turns the
 * backslashes of paths saved on Windows into slashes, after a UNC prefix (`clean_paths` on load).
 */
function asBlenderShows(stored: string): string {
  if (process.platform === 'win32') return stored;
  const unc = stored.startsWith('\\\\') ? 2 : 0;
  return stored.slice(0, unc) + stored.slice(unc).replace(/\\/g, '/');
}

/**
 * The paths the tracer lists for the .blend `file`, as Blender lists them for it: its own paths, plus
 * the libraries Blender loads indirectly (through other libraries), which Blender lists with a path
 * relative to the opened file.
 */
function tracerList(plan: BundlePlan, file: string, withPacked: boolean): string[] {
  const own = plan.dependencies.filter((d) => d.holder === file && (withPacked || d.status !== 'packed'));
  const direct = new Set(own.filter((d) => d.kind === 'library').map((d) => d.files[0]?.path));
  const indirect = plan.blends.map((b) => b.path).filter((p) => p !== file && !direct.has(p));
  return [...own.map((d) => asBlenderShows(d.stored)), ...indirect.map((p) => `//${relative(dirname(file), p).split('\\').join('/')}`)].sort();
}


/** The corpus is made, traced, packed and rendered by each Blender under test (3.4, 4.3, 5.2). */
describe.each(blendersUnderTest())('tracing and packing scenes made by Blender $series', (under) => {
  const blenderPath = under.path;
  if (!blenderPath) {
    it.skip(`needs Blender ${under.series}: ${under.missing}`, () => undefined);
    return;
  }
  let work: string;
  let corpus: PackCorpus;
  let plan: BundlePlan;
  let node: TestNode | null = null;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-pack-corpus-'));
    await mkdir(join(work, 'corpus'));
    corpus = await makePackCorpus(blenderPath!, join(work, 'corpus'));
    plan = await traceScene(corpus.scene);
  });
  afterAll(async () => {
    await node?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('lists, for every .blend, exactly the paths Blender lists for it', async () => {
    const files = [corpus.scene, corpus.level1, corpus.level2, corpus.kinds, corpus.loop, join(dirname(corpus.loop), 'loop_b.blend')];
    const lists = await blenderPathLists(blenderPath!, files);
    expect([...lists.keys()].sort()).toEqual([...files].sort());
    for (const file of files) {
      const traced = await traceScene(file);
      const blender = lists.get(file)!;
      expect(tracerList(traced, file, false), file).toEqual(blender.paths);
      expect(tracerList(traced, file, true), file).toEqual(blender.withPacked);
    }
    expect(lists.get(corpus.kinds)!.paths.length).toBeGreaterThan(10);
  });

  it('finds what each texture, sequence, tile and library needs, and says what cannot travel', () => {
    const scene = (owner: string) => plan.dependencies.find((d) => d.owner === owner && d.holder === corpus.scene)!;
    for (const owner of ['grid.png', 'größe ñ.png', 'hdri.png', 'metal.png', 'level1.blend']) expect(scene(owner), owner).toMatchObject({ status: 'found' });
    expect(scene('frames').files.map((f) => posix.basename(f.path))).toEqual(['frame_0001.png', 'frame_0002.png', 'frame_0003.png']);
    expect(scene('Tiles').files.map((f) => posix.basename(f.path))).toEqual(['tiles.1001.png', 'tiles.1002.png']);
    expect(scene('logo.png')).toMatchObject({ status: 'packed', stored: '//packed/logo.png' });
    expect(plan.missing.map((d) => d.stored).sort()).toEqual(['C:\\textures\\wood.png', '\\\\server\\share\\tex.png']);
    expect(plan.missing.every((d) => /Windows path from another computer/.test(d.problem!))).toBe(true);
    expect(plan.blends.map((b) => [relative(work, b.path), b.entry, b.compression])).toEqual([
      [join('corpus', 'Projekt Ä', 'shot.blend'), 'shot.blend', 'none'],
      [join('corpus', 'Projekt Ä', 'level1.blend'), '_libraries/level1.blend', 'zstd'],
      [join('corpus', 'shared', 'libs', 'level2.blend'), `_external${join(work, 'corpus', 'shared', 'libs', 'level2.blend')}`, 'none'],
    ]);
    const names = plan.entries.map((e) => e.name);
    expect(names[0]).toBe('shot.blend');
    expect(names.filter((n) => !n.includes('/') && n.endsWith('.blend'))).toEqual(['shot.blend']);
    expect(names.some((n) => n.endsWith('.blend1'))).toBe(false);
    expect(names).toEqual(expect.arrayContaining(['textures/grid.png', 'textures/größe ñ.png', 'seq/frame_0002.png', 'udim/tiles.1002.png', 'lib1tex/l1.png']));
    expect(names.some((n) => n.includes('to-pack'))).toBe(false);
  });

  it('writes the same bundle twice without touching the artist\'s files', async () => {
    const before = await hashTree(join(work, 'corpus'));
    await writeBundle(plan, join(work, 'bundle.zip'));
    await writeBundle(await traceScene(corpus.scene), join(work, 'again.zip'));
    expect((await readFile(join(work, 'bundle.zip'))).equals(await readFile(join(work, 'again.zip')))).toBe(true);
    expect(await hashTree(join(work, 'corpus'))).toEqual(before);
    const entries = await readZip(join(work, 'bundle.zip'));
    expect(entries.map((e) => e.name)).toEqual(plan.entries.map((e) => e.name));
    const level1 = entries.find((e) => e.name === '_libraries/level1.blend')!;
    expect(level1.data.subarray(0, 7).toString()).toBe('BLENDER');
  });

  it('renders the bundle on the render node pixel for pixel like Blender renders the scene in place', async () => {
    await renderInPlace(blenderPath!, corpus.scene, join(work, 'inplace', 'frame_'), 1, 2);
    const inPlace = await Promise.all([1, 2].map(async (n) => decodePng(await readFile(join(work, 'inplace', `frame_000${n}.png`)))));
    const c = corpus.colours;
    for (const key of ['grid', 'umlaut', 'hdri', 'metal', 'seq1', 'tile1001', 'tile1002', 'packed', 'level1', 'level2']) {
      expect(hasColour(inPlace[0]!, c[key]!), `frame 1 shows ${key}`).toBe(true);
    }
    expect(hasColour(inPlace[0]!, [255, 0, 255], 0), 'missing textures render magenta').toBe(true);
    expect(hasColour(inPlace[1]!, c.seq2!)).toBe(true);
    expect(hasColour(inPlace[1]!, c.seq1!)).toBe(false);

    node = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
    const slug = await uploadBytes(node, 'shot.zip', await readFile(join(work, 'bundle.zip')));
    const job = (await node.call('POST', '/jobs', { slug })).json;
    await node.call('POST', `/jobs/${job.id}/validate`);
    const validated = await waitForJob(node, job.id, (j) => j.status !== 'validating');
    expect(validated.status, JSON.stringify(validated.failedReason)).toBe('validated');
    expect(validated.sceneFile.scenePath).toBe('shot.blend');
    await node.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', frameRanges: ['1-2'] } });
    const done = await waitForJob(node, job.id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 170_000);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    const downloads = (await node.call('GET', `/jobs/${job.id}/downloads`)).json;
    expect(downloads.frameOutputs).toHaveLength(2);
    for (const [index, output] of downloads.frameOutputs.entries()) {
      const rendered = decodePng(Buffer.from(await (await fetch(output.url)).arrayBuffer()));
      expect([rendered.width, rendered.height, rendered.channels]).toEqual([inPlace[index]!.width, inPlace[index]!.height, inPlace[index]!.channels]);
      expect(rendered.data.equals(inPlace[index]!.data), `frame ${index + 1} is pixel-identical`).toBe(true);
    }
  });

  it('packs two libraries that link each other once each, and says they loop', async () => {
    const loop = await traceScene(corpus.loop);
    expect(loop.notes).toEqual([expect.stringMatching(/loop_b\.blend links loop_a\.blend, which links back to it/)]);
    expect(loop.entries.map((e) => e.name)).toEqual(['loop_a.blend', '_libraries/loop_b.blend', 'loop.png']);
    const patches = loop.blends[1]!.patches.map((p) => Buffer.from(p.data, 'base64').toString('utf8').replace(/\0+$/, ''));
    expect(patches.sort()).toEqual(['//../loop.png', '//../loop_a.blend']);
    await writeBundle(loop, join(work, 'loop.zip'));
    expect((await readZip(join(work, 'loop.zip'))).map((e) => e.name)).toEqual(['loop_a.blend', '_libraries/loop_b.blend', 'loop.png']);
  });
});
