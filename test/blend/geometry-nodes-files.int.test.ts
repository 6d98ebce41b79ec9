import { cp, mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BundlePlan } from '../../src/blend/pack/bundle-plan';
import { writeBundle } from '../../src/blend/pack/write-bundle';
import { traceScene } from '../../src/blend/pack/trace-scene';
import { probeBlender } from '../../src/render-node/blender/probe';
import { runBlender } from '../../src/render-node/blender/run-blender';
import { blendersUnderTest } from '../helpers/blenders';
import { makeGeometryScene, type GeometryScene } from '../helpers/geometry-scene';
import { startRenderJob, startTestNode, waitForJob, type TestNode } from '../helpers/node';
import { blenderPathLists, renderInPlace } from '../helpers/pack-corpus';
import { decodePng, hasColour, type Pixels } from '../helpers/png-pixels';

/** Prints `PATHMAP {json}`: the paths of each local data-block but libraries, by its name (`bpy.data.file_path_map`). */
const PATH_MAP = [
  'import bpy, json',
  'paths = bpy.data.file_path_map()',
  'local = {i.name: sorted(p) for i, p in paths.items() if p and i.library is None and not isinstance(i, bpy.types.Library)}',
  'print("PATHMAP " + json.dumps(local))',
].join('\n');

/** Blenders with Geometry Nodes bakes (4.1+): the scenes are made, packed and rendered by each. */
const BAKING_BLENDERS = blendersUnderTest().filter((under) => under.series !== '3.4');

async function framesInPlace(blenderPath: string, scene: string, folder: string): Promise<Pixels[]> {
  await renderInPlace(blenderPath, scene, join(folder, 'frame_'), 1, 2);
  return Promise.all([1, 2].map(async (n) => decodePng(await readFile(join(folder, `frame_000${n}.png`)))));
}

describe.each(BAKING_BLENDERS)('Geometry Nodes bakes and imports saved by Blender $series', (under) => {
  const blenderPath = under.path;
  if (!blenderPath) {
    it.skip(`needs Blender ${under.series}: ${under.missing}`, () => undefined);
    return;
  }
  /** Blender 5.x lists bake folders and node file paths in `bpy.utils.blend_paths`; 4.x lists neither. */
  const listsGeometryPaths = Number(under.series.split('.')[0]) >= 5;
  let work: string;
  let made: GeometryScene;
  let plan: BundlePlan;
  let node: TestNode | null = null;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), `rd-geometry-${under.series}-`));
    made = await makeGeometryScene(blenderPath, work);
    plan = await traceScene(made.scene);
  });
  afterAll(async () => {
    await node?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('lists the paths Blender lists for the scene', async () => {
    const blender = (await blenderPathLists(blenderPath, [made.scene])).get(made.scene)!;
    const listed = plan.dependencies.filter((d) => listsGeometryPaths || (d.kind !== 'geometry-nodes-bake' && d.kind !== 'node-file'));
    expect(listed.map((d) => d.stored).sort()).toEqual(blender.withPacked);
    // Blender lists the libraries of packed linked data as paths to read; the tracer knows their data is in the file.
    const unpacked = listed.filter((d) => d.status !== 'packed' || d.kind === 'library');
    expect(unpacked.map((d) => d.stored).sort()).toEqual(blender.paths);
    if (listsGeometryPaths) expect(blender.withPacked.filter((p) => p === made.bakeDirectory)).toHaveLength(3);
  });

  it.skipIf(!listsGeometryPaths)('names the data-block holding each path as Blender\'s file path map does (5.x; 4.3 has no map)', async () => {
    const result = await runBlender({ blenderPath, args: ['-b', made.scene, '--python-exit-code', '1', '--python-expr', PATH_MAP], timeoutMs: 120_000 });
    const line = result.stdout.split('\n').find((l) => l.startsWith('PATHMAP '));
    expect(line, result.stdout.slice(-2000)).toBeDefined();
    const owners: Record<string, string[]> = {};
    for (const d of plan.dependencies.filter((dep) => dep.kind !== 'library')) {
      owners[d.owner] = [...new Set([...(owners[d.owner] ?? []), d.stored])].sort();
    }
    expect(owners).toEqual(JSON.parse(line!.slice('PATHMAP '.length)));
  });

  it('finds every baked folder and imported file, and reports nothing missing', () => {
    const bake = (id: number) => plan.dependencies.find((d) => d.kind === 'geometry-nodes-bake' && d.subfolder === String(id))!;
    const sceneDir = dirname(made.scene);
    expect(bake(made.bakeIds.simulation)).toMatchObject({ status: 'found', stored: made.bakeDirectory, owner: 'Baked', required: true });
    expect(bake(made.bakeIds.simulation).files.map((f) => f.path.slice(sceneDir.length + 1)).sort()).toEqual(
      ['blobs/00001_00000.blob', 'blobs/00002_00000.blob', 'meta/00001_00000.json', 'meta/00002_00000.json'].map((f) => `${made.bakeDirectory.slice(2)}/${made.bakeIds.simulation}/${f}`),
    );
    expect(bake(made.bakeIds.bake_packed)).toMatchObject({ status: 'packed', stored: made.bakeDirectory });
    expect(bake(made.bakeIds.never)).toMatchObject({ status: 'missing', required: false });
    const custom = plan.dependencies.find((d) => d.stored === '//bakes/still')!;
    expect(custom).toMatchObject({ kind: 'geometry-nodes-bake', status: 'found', shape: 'directory' });
    expect(custom.subfolder).toBeUndefined();
    expect(plan.missing).toEqual([]);
    const names = plan.entries.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['bakes/still/meta/00001_00000.json', `${made.bakeDirectory.slice(2)}/${made.bakeIds.simulation}/meta/00002_00000.json`]));
    if (made.imports.obj) {
      expect(plan.dependencies.filter((d) => d.kind === 'node-file').map((d) => [d.owner, d.stored, d.status])).toEqual([
        ['Imports', '//imports/shape.obj', 'found'],
        ['Imports', made.imports.stl, 'found'],
      ]);
      expect(names).toContain('imports/shape.obj');
      expect(names.some((n) => n.startsWith('_external/') && n.endsWith('/elsewhere/part.stl'))).toBe(true);
      expect(plan.dependencies.filter((d) => d.kind === 'library').map((d) => [d.stored, d.status])).toEqual([
        [made.packedLibrary, 'packed'],
        [made.packedLibrary, 'packed'],
      ]);
    }
  });

  it('says which bake and which import are gone, and Blender draws neither without them', async () => {
    const copy = join(work, 'gone', 'project');
    await mkdir(dirname(copy), { recursive: true });
    await cp(dirname(made.scene), copy, { recursive: true });
    await rm(join(copy, made.bakeDirectory.slice(2)), { recursive: true });
    await rm(join(copy, 'bakes'), { recursive: true });
    if (made.imports.obj) await rm(join(copy, 'imports'), { recursive: true });
    const scene = join(copy, 'geometry.blend');
    const gone = await traceScene(scene);
    const missing = gone.missing.map((d) => [d.kind, d.resolved]).sort();
    expect(missing).toEqual(
      [
        ['geometry-nodes-bake', join(copy, made.bakeDirectory.slice(2), String(made.bakeIds.simulation))],
        ['geometry-nodes-bake', join(copy, 'bakes', 'still')],
        ...(made.imports.obj ? [['node-file', join(copy, 'imports', 'shape.obj')]] : []),
      ].sort(),
    );
    expect(gone.missing.find((d) => d.subfolder)?.problem).toMatch(/^The geometry nodes bake "Baked" in geometry\.blend uses \/\/blendcache_geometry\/.+, which is not on this computer/);
    const [frame] = await framesInPlace(blenderPath, scene, join(work, 'gone-frames'));
    const c = made.colours;
    expect(hasColour(frame!, c.simulation!), 'the simulation is drawn from its bake only').toBe(false);
    expect(hasColour(frame!, c.bake_custom!), 'the Bake node is drawn from its bake only').toBe(false);
    expect(hasColour(frame!, c.bake_packed!), 'a packed bake needs no folder').toBe(true);
    if (made.imports.obj) expect(hasColour(frame!, c.import_obj!), 'the OBJ is drawn from its file only').toBe(false);
  });

  it('renders the bundle on a node running the same Blender pixel for pixel like Blender in place', async () => {
    const inPlace = await framesInPlace(blenderPath, made.scene, join(work, 'inplace'));
    for (const [key, colour] of Object.entries(made.colours)) expect(hasColour(inPlace[0]!, colour), `frame 1 shows ${key}`).toBe(true);
    expect(inPlace[1]!.data.equals(inPlace[0]!.data), 'the simulation moves between frames').toBe(false);
    const bundle = join(work, 'geometry.zip');
    await writeBundle(plan, bundle);
    // Files outside the project are only in the bundle from here on, so the node cannot read them where they were.
    if (made.imports.stl) await rename(dirname(made.imports.stl), `${dirname(made.imports.stl)}-moved`);

    node = await startTestNode({ blender: await probeBlender(blenderPath, { timeoutMs: 60_000 }) });
    const id = await startRenderJob(node, 'geometry.zip', await readFile(bundle), { frameRanges: ['1-2'] });
    const done = await waitForJob(node, id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 170_000);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(done.analysis.warnings.filter((w: { code: string }) => w.code === 'missing-dependency'), 'packed linked data is not missing on the node either').toEqual([]);
    const downloads = (await node.call('GET', `/jobs/${id}/downloads`)).json;
    expect(downloads.frameOutputs).toHaveLength(2);
    for (const [index, output] of downloads.frameOutputs.entries()) {
      const rendered = decodePng(Buffer.from(await (await fetch(output.url)).arrayBuffer()));
      expect([rendered.width, rendered.height, rendered.channels]).toEqual([inPlace[index]!.width, inPlace[index]!.height, inPlace[index]!.channels]);
      expect(rendered.data.equals(inPlace[index]!.data), `frame ${index + 1} is pixel-identical`).toBe(true);
    }
  });
});
