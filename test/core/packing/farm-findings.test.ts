import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceScene } from '../../../src/blend/pack/trace-scene';
import { analysisForArtist, findingsForArtist, type FarmFindings } from '../../../src/core/packing/farm-findings';
import { missingPlaces, summarizePlan, type PackSummary } from '../../../src/core/packing/pack-summary';
import type { AnalysisWarning, SceneDependency } from '../../../src/shared/api/analysis';
import { writeTree } from '../../blend/helpers/scene-folder';
import { SyntheticBlend } from '../../blend/helpers/synthetic-blend';

let root: string;
let proj: string;
let summary: PackSummary;
/** Where the bundle keeps files from `root/shared`. */
let external: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rd-findings-'));
  proj = join(root, 'proj');
  const scene = new SyntheticBlend();
  scene.addImage({ name: 'Grid', path: '//textures/grid.png' });
  scene.addImage({ name: 'Stamp', path: '//../shared/stamp.png' });
  scene.addImage({ name: 'Gone', path: '//textures/missing.png' });
  scene.addImage({ name: 'Abs', path: '/nowhere/abs.png' });
  scene.addImage({ name: 'Tiles', path: '//udim/t.<UDIM>.png', source: 6, tiles: [1001, 1002] });
  scene.addImage({ name: 'Drive', path: 'C:\\tex\\wood.png' });
  scene.addLibrary({ name: 'lib.blend', path: '//lib.blend' });
  const lib = new SyntheticBlend();
  lib.addImage({ name: 'LibGone', path: '//libtex/gone.png' });
  await writeTree(root, {
    'proj/shot.blend': scene.build(),
    'proj/lib.blend': lib.build(),
    'proj/textures/grid.png': 'png',
    'shared/stamp.png': 'png',
  });
  summary = summarizePlan(await traceScene(join(proj, 'shot.blend'), { platform: 'posix' }));
  external = summary.places.find((p) => p.owner === 'Stamp')!.inBundle!.replace(/\/stamp\.png$/, '');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const dep = (name: string, path: string, resolvedPath: string | null, exists: boolean): SceneDependency => ({ kind: 'image', name, path, resolvedPath, packed: false, exists });
const missing = (path: string, message = `Image is missing: ${path} was not uploaded with the scene.`): AnalysisWarning => ({ code: 'missing-dependency', message, path });

/** What the node reports for the bundle of the scene above: paths as the copies in the bundle store them. */
function nodeFindings(extra: Partial<FarmFindings> = {}): FarmFindings {
  return {
    dependencies: [
      dep('grid.png', '//textures/grid.png', 'textures/grid.png', true),
      dep('stamp.png', `//${external}/stamp.png`, `${external}/stamp.png`, true),
      dep('missing.png', '//textures/missing.png', 'textures/missing.png', false),
      dep('abs.png', '/nowhere/abs.png', null, false),
      dep('Tiles', '//udim/t.<UDIM>.png', 'udim/t.<UDIM>.png', false),
      dep('wood.png', 'C:/tex/wood.png', null, false),
      dep('gone.png', '//libtex/gone.png', '_libraries/libtex/gone.png', false),
      ...(extra.dependencies ?? []),
    ],
    warnings: [
      missing('//textures/missing.png'),
      missing('/nowhere/abs.png', 'Image "abs.png" uses /nowhere/abs.png, outside the uploaded files: the node never reads it.'),
      missing('//udim/t.1002.png'),
      missing('C:/tex/wood.png'),
      missing('//libtex/gone.png'),
      { code: 'newer-blender', message: 'Saved with a newer Blender.' },
      ...(extra.warnings ?? []),
    ],
  };
}

describe('findingsForArtist', () => {
  it('names what is truly missing by the artist\'s path and why, and drops files that travelled', () => {
    const { warnings } = findingsForArtist(nodeFindings({ warnings: [missing(`//${external}/stamp.png`)] }), summary, 'disk');
    expect(warnings.map((w) => w.path ?? w.code)).toEqual([
      join(proj, 'textures', 'missing.png'),
      '/nowhere/abs.png',
      join(proj, 'udim', 't.1002.png'),
      'C:\\tex\\wood.png',
      join(proj, 'libtex', 'gone.png'),
      'newer-blender',
    ]);
    expect(warnings[0]!.message).toBe(`The image "Gone" uses ${join(proj, 'textures', 'missing.png')}: not on this computer. The farm renders without it. Put the file back at that path, or relink it in Blender (File > External Data > Find Missing Files) and save the scene.`);
    expect(warnings[3]!.message).toMatch(/a Windows path from another computer/);
    expect(warnings[5]).toEqual({ code: 'newer-blender', message: 'Saved with a newer Blender.' });
    for (const w of warnings) expect(`${w.path} ${w.message}`).not.toMatch(/_external|_libraries/);
  });

  it('names files as the scene stores them for a scene whose folder is unknown (dropped in the browser)', () => {
    const { warnings } = findingsForArtist(nodeFindings(), summary, 'stored');
    expect(warnings.map((w) => w.path ?? w.code)).toEqual(['//textures/missing.png', '/nowhere/abs.png', '//udim/t.1002.png', 'C:\\tex\\wood.png', '//libtex/gone.png', 'newer-blender']);
    expect(warnings[0]!.message).toMatch(/only the dropped scene reached Renderdrop/);
  });

  it('puts a path inside the bundle it does not know back where the artist has it, keeping the farm\'s words', () => {
    const odd = `//${external}/other.png`;
    const { warnings } = findingsForArtist({ dependencies: [], warnings: [missing(odd, `Sound "x" is missing: ${odd} was not uploaded.`)] }, summary, 'disk');
    expect(warnings).toEqual([{ code: 'missing-dependency', path: join(root, 'shared', 'other.png'), message: `Sound "x" is missing: ${join(root, 'shared', 'other.png')} was not uploaded.` }]);
  });

  it('gives the farm\'s dependencies the artist\'s paths, and marks files that travelled as present', () => {
    const { dependencies } = findingsForArtist(nodeFindings(), summary, 'disk');
    expect(dependencies.map((d) => [d.path, d.resolvedPath, d.exists])).toEqual([
      [join(proj, 'textures', 'grid.png'), null, true],
      [join(root, 'shared', 'stamp.png'), null, true],
      [join(proj, 'textures', 'missing.png'), null, false],
      ['/nowhere/abs.png', null, false],
      [join(proj, 'udim', 't.<UDIM>.png'), null, false],
      ['C:\\tex\\wood.png', null, false],
      [join(proj, 'libtex', 'gone.png'), null, false],
    ]);
  });

  it('leaves the findings of a scene sent as it is alone', () => {
    const findings = nodeFindings();
    expect(findingsForArtist(findings, null, 'disk')).toBe(findings);
  });
});

describe('analysisForArtist', () => {
  it('maps the warnings of an analysis of any shape and keeps the rest', () => {
    const analysis = { engine: 'CYCLES', ...nodeFindings() };
    expect(analysisForArtist(analysis, summary, 'disk')).toMatchObject({
      engine: 'CYCLES',
      warnings: expect.arrayContaining([expect.objectContaining({ path: join(proj, 'textures', 'missing.png') })]),
      dependencies: expect.arrayContaining([expect.objectContaining({ path: join(root, 'shared', 'stamp.png'), exists: true })]),
    });
    expect(analysisForArtist('not an analysis', summary, 'disk')).toBe('not an analysis');
    expect(analysisForArtist({ warnings: 'odd' }, summary, 'disk')).toEqual({ warnings: 'odd' });
  });
});

describe('summarizePlan', () => {
  it('lists what is missing on the farm with where it was looked for, and what travels', () => {
    expect(summary).toMatchObject({ bundled: true, files: 4 });
    expect(missingPlaces(summary).map((p) => [p.owner, p.path, p.missing])).toEqual([
      ['Gone', join(proj, 'textures', 'missing.png'), 'not-found'],
      ['Abs', '/nowhere/abs.png', 'not-found'],
      ['Tiles', join(proj, 'udim', 't.<UDIM>.png'), 'not-found'],
      ['Drive', 'C:\\tex\\wood.png', 'other-system'],
      ['LibGone', join(proj, 'libtex', 'gone.png'), 'not-found'],
    ]);
    expect(summary.places.filter((p) => p.travels).map((p) => p.owner)).toEqual(['Grid', 'Stamp', 'lib.blend']);
  });
});
