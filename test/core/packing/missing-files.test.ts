import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BundlePlan } from '../../../src/blend/pack/bundle-plan';
import { traceScene } from '../../../src/blend/pack/trace-scene';
import { findingsForArtist } from '../../../src/core/packing/farm-findings';
import { missingFiles, missingSentence } from '../../../src/core/packing/missing-files';
import { summarizePlan, type PackSummary } from '../../../src/core/packing/pack-summary';
import { formatPackPlan } from '../../../src/cli/packing/format-pack-plan';
import { formatPackingSummary } from '../../../src/cli/packing/format-packing';
import { formatAnalysisSummary } from '../../../src/cli/submit/format-analysis';
import type { AnalysisWarning, SceneDependency } from '../../../src/shared/api/analysis';
import { writeTree } from '../../blend/helpers/scene-folder';
import { SyntheticBlend } from '../../blend/helpers/synthetic-blend';

let root: string;
let proj: string;
let plan: BundlePlan;
let summary: PackSummary;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rd-missing-'));
  proj = join(root, 'proj');
  const scene = new SyntheticBlend();
  scene.addImage({ name: 'Frames', path: '//seq/frame_0001.png', source: 2 });
  scene.addImage({ name: 'Tiles', path: '//udim/t.<UDIM>.png', source: 6, tiles: [1001, 1002, 1003] });
  scene.addImage({ name: 'Gone', path: '//audio/music.wav' });
  scene.addSound({ name: 'music.wav', path: '//audio/music.wav' });
  scene.addImage({ name: 'Drive', path: 'C:\\tex\\wood.png' });
  await writeTree(root, {
    'proj/shot.blend': scene.build(),
    'proj/shot.blend1': 'backup',
    'proj/seq/frame_0001.png': 'a',
    'proj/seq/frame_0002.png': 'b',
    'proj/seq/frame_0005.png': 'e',
    'proj/udim/t.1001.png': 'a',
    'proj/udim/t.1003.png': 'c',
  });
  plan = await traceScene(join(proj, 'shot.blend'), { platform: 'posix' });
  summary = summarizePlan(plan);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('missingFiles', () => {
  it('names every missing file once by its path on this disk, frames missing inside a sequence and tiles included', () => {
    const files = missingFiles(summary, 'disk');
    expect(files.map((f) => f.path)).toEqual([
      join(proj, 'seq', 'frame_0003.png'),
      join(proj, 'seq', 'frame_0004.png'),
      join(proj, 'udim', 't.1002.png'),
      join(proj, 'audio', 'music.wav'),
      'C:\\tex\\wood.png',
    ]);
    expect(files[0]).toMatchObject({ owner: 'Frames', reason: 'a frame missing from the sequence on this computer' });
    expect(files[2]).toMatchObject({ owner: 'Tiles', reason: 'a tile missing from the UDIM image on this computer' });
    expect(files[3]).toMatchObject({ kind: 'image', owner: 'Gone', also: ['sound "music.wav"'] });
  });

  it('gives advice that can fix each file, never to send it packed when it exists nowhere', () => {
    const files = missingFiles(summary, 'disk');
    expect(files[3]!.advice).toMatch(/Put the file back at that path, or relink it in Blender/);
    expect(files[4]!.advice).toMatch(/Make Paths Relative/);
    for (const file of files) expect(`${missingSentence(file)}`).not.toMatch(/--no-pack|_external|_libraries/);
  });

  it('tells the same files in `pack` and before a submission, once each', () => {
    const lines = formatPackPlan(plan);
    const before = formatPackingSummary('shot.blend', summary).join('\n');
    for (const file of missingFiles(summary, 'disk')) {
      expect(lines.filter((line) => line.startsWith(`  ${file.path} (`)), file.path).toHaveLength(1);
      expect(before.split('\n').filter((line) => line.startsWith(`  ${file.path} (`)), file.path).toHaveLength(1);
    }
    expect(before).toContain('shot.blend: 5 files it uses are missing');
    expect(plan.entries.map((e) => e.name)).not.toContain('shot.blend1');
  });
});

const dep = (kind: SceneDependency['kind'], name: string, path: string, resolvedPath: string | null, exists: boolean): SceneDependency => ({ kind, name, path, resolvedPath, packed: false, exists });
const missing = (path: string): AnalysisWarning => ({ code: 'missing-dependency', message: `Image is missing: ${path} was not uploaded with the scene.`, path });

describe('the farm\'s warnings of a packed scene', () => {
  const findings = () => ({
    dependencies: [
      dep('image', 'Tiles', '//udim/t.<UDIM>.png', 'udim/t.<UDIM>.png', false),
      dep('image', 'Gone', '//audio/music.wav', 'audio/music.wav', false),
      dep('sound', 'music.wav', '//audio/music.wav', 'audio/music.wav', false),
    ],
    warnings: [missing('//udim/t.1002.png'), missing('//udim/t.1001.png'), missing('//audio/music.wav'), missing('//audio/music.wav')],
  });

  it('tell a file missing once, and a tile that is missing here too although the image travelled', () => {
    const { warnings } = findingsForArtist(findings(), summary, 'disk');
    expect(warnings.map((w) => w.path)).toEqual([join(proj, 'udim', 't.1002.png'), join(proj, 'audio', 'music.wav')]);
  });

  it('are told once each by the submit summary, with advice that fixes them', () => {
    const lines = formatAnalysisSummary({ fileName: 'shot.blend', jobId: 'j', analysis: findingsForArtist(findings(), summary, 'disk'), renderConfig: { colorManagementPreset: 'default' } });
    const music = lines.filter((l) => l.includes(join(proj, 'audio', 'music.wav')));
    expect(music).toHaveLength(1);
    expect(lines.filter((l) => l.includes('t.1002.png'))).toHaveLength(1);
    expect(lines.join('\n')).not.toContain('<UDIM>');
  });
});
