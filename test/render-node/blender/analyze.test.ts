import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  analysisFailure,
  withoutDirectories,
  analyzeScene,
  countFrames,
  SceneAnalysisError,
  toSceneAnalysis,
  type RawAnalysis,
} from '../../../src/render-node/blender/analyze';
import type { BlendFileHead } from '../../../src/blend/reader';

const raw: RawAnalysis = {
  fileVersion: [3, 4, 6],
  nodeFileVersion: [3, 4, 6],
  nodeVersion: '3.4.1',
  scene: 'Scene',
  engine: 'CYCLES',
  frameStart: 1,
  frameEnd: 10,
  frameStep: 3,
  fps: 24,
  fpsBase: 1,
  resolution: [64, 36],
  resolutionPercentage: 100,
  samples: 4,
  denoisingEnabled: false,
  denoiser: 'OPENIMAGEDENOISE',
  cameras: ['Camera'],
  activeCamera: 'Camera',
  viewLayers: [{ name: 'ViewLayer', useForRender: true }],
  activeViewLayer: 'ViewLayer',
  outputFormat: 'PNG',
  outputSettings: { colorMode: 'RGBA', colorDepth: '8', exrCodec: null, tiffCodec: null, compression: 15, quality: null },
  outputPath: '//render/sample_####',
  colorManagement: {
    displayDevice: 'sRGB',
    viewTransform: 'Filmic',
    look: 'None',
    exposure: 0,
    gamma: 1,
    sequencer: 'sRGB',
    availableViewTransforms: ['Standard', 'Filmic'],
  },
  usesCompositor: false,
  rendersSequencer: false,
  dependencies: [],
  warnings: [{ code: 'missing-dependency', message: 'gone', path: '/x.png' }],
};

const legacy = (versionNumber: number): BlendFileHead => ({
  compression: 'none',
  format: 'legacy',
  pointerSize: 8,
  endianness: 'little',
  version: `${Math.floor(versionNumber / 100)}.${versionNumber % 100}`,
  versionNumber,
});

describe('toSceneAnalysis', () => {
  it('keeps the scene settings, drops internal fields and counts the frames', () => {
    const analysis = toSceneAnalysis(raw, '3.4.1');
    expect(analysis).toMatchObject({ savedWithBlender: '3.4', nodeBlender: '3.4.1', savedWithNewerBlender: false, totalFrames: 4 });
    expect(analysis).not.toHaveProperty('fileVersion');
    expect(analysis).not.toHaveProperty('nodeFileVersion');
    expect(analysis.warnings).toEqual(raw.warnings);
  });

  it('warns when the file format is newer than the node', () => {
    const analysis = toSceneAnalysis({ ...raw, fileVersion: [4, 2, 1] }, '3.4.1');
    expect(analysis.savedWithNewerBlender).toBe(true);
    expect(analysis.warnings.map((w) => w.code)).toEqual(['missing-dependency', 'newer-blender']);
    expect(analysis.warnings[1]!.message).toContain('4.2');
  });
});

describe('sceneChoiceWarnings (through toSceneAnalysis)', () => {
  it('warns when no camera is active, naming the cameras there are', () => {
    const warnings = toSceneAnalysis({ ...raw, activeCamera: null, cameras: ['Camera', 'CloseUp'] }, '3.4.1').warnings;
    const warning = warnings.find((w) => w.code === 'no-active-camera');
    expect(warning?.message).toContain('"Camera", "CloseUp"');
  });
  it('says to add a camera when the scene has none', () => {
    const warning = toSceneAnalysis({ ...raw, activeCamera: null, cameras: [] }, '3.4.1').warnings.find((w) => w.code === 'no-active-camera');
    expect(warning?.message).toMatch(/no camera.*Add a camera/);
  });
  it('warns when no view layer is enabled for rendering, naming them', () => {
    const layers = [{ name: 'ViewLayer', useForRender: false }, { name: 'Background', useForRender: false }];
    const warning = toSceneAnalysis({ ...raw, viewLayers: layers }, '3.4.1').warnings.find((w) => w.code === 'no-view-layer-for-render');
    expect(warning?.message).toContain('"ViewLayer", "Background"');
  });
  it('asks for neither a camera nor a view layer when the video sequencer makes the frames', () => {
    const layers = [{ name: 'ViewLayer', useForRender: false }];
    const codes = toSceneAnalysis({ ...raw, activeCamera: null, cameras: [], viewLayers: layers, rendersSequencer: true }, '3.4.1').warnings.map((w) => w.code);
    expect(codes).toEqual(['missing-dependency']);
  });
  it('says nothing when a camera is active and a view layer renders', () => {
    const codes = toSceneAnalysis(raw, '3.4.1').warnings.map((w) => w.code);
    expect(codes).not.toContain('no-active-camera');
    expect(codes).not.toContain('no-view-layer-for-render');
  });
});

describe('countFrames', () => {
  it('counts start..end by step', () => {
    expect(countFrames(1, 3, 1)).toBe(3);
    expect(countFrames(1, 10, 3)).toBe(4);
    expect(countFrames(5, 5, 1)).toBe(1);
    expect(countFrames(5, 4, 1)).toBe(0);
    expect(countFrames(0, 1_048_574, 1)).toBe(1_048_575);
  });
});

describe('analysisFailure', () => {
  const base = { exitCode: 1, signal: null, timedOut: false, stderr: '' };
  const context = { fileName: 'shot.blend', header: legacy(304), nodeBlenderVersion: '3.4.1', timeoutMs: 120_000 };

  it('names a file Blender could not read', () => {
    const stdout = "Blender 3.4.1\nRead blend: /j/shot.blend\nError: Failed to read blend file '/j/shot.blend': Missing DNA block\n\nBlender quit\n";
    const error = analysisFailure({ ...base, stdout }, context);
    expect(error).toBeInstanceOf(SceneAnalysisError);
    expect(error.toReason()).toMatchObject({ name: 'SceneUnreadable', type: 'scene' });
    expect(error.message).toContain('Missing DNA block');
    expect(error.message).not.toContain('/j/');
    expect(error.message).toBe('Blender could not read shot.blend (Missing DNA block): it may be damaged or incomplete. Open it in Blender, save it again and submit it again.');
  });

  it('cuts every absolute path in Blender output down to its file name, quoted or not', () => {
    expect(withoutDirectories('Read blend: /srv/node/jobs/1234/scene/shot.blend')).toBe('Read blend: shot.blend');
    expect(withoutDirectories("Error: Failed to read blend file '/srv/node/jobs/1/shot.blend': Missing DNA block")).toBe("Error: Failed to read blend file 'shot.blend': Missing DNA block");
    expect(withoutDirectories('Warning: Unable to open C:\\farm\\jobs\\1\\tex.png (frame 1/2)')).toBe('Warning: Unable to open tex.png (frame 1/2)');
    expect(withoutDirectories('Fra:1 Mem:12.5M | Sample 1/4')).toBe('Fra:1 Mem:12.5M | Sample 1/4');
  });

  it('blames a newer Blender when the header says so', () => {
    const stdout = "Error: Failed to read blend file '/j/shot.blend', not a blend file\n";
    expect(analysisFailure({ ...base, stdout }, { ...context, header: legacy(502) }).toReason()).toMatchObject({ name: 'SceneTooNew', type: 'blender' });
    expect(analysisFailure({ ...base, exitCode: null, signal: 'SIGSEGV', stdout: '' }, { ...context, header: legacy(405) }).name).toBe('SceneTooNew');
  });

  it('reports a crash on an old-enough file as unreadable and a time-out as such', () => {
    expect(analysisFailure({ ...base, exitCode: null, signal: 'SIGSEGV', stdout: '' }, context).name).toBe('SceneUnreadable');
    expect(analysisFailure({ ...base, exitCode: null, timedOut: true, stdout: '' }, context).toReason()).toMatchObject({
      name: 'AnalysisTimedOut',
      type: 'blender',
    });
  });

  it('reports a failing analysis script as a Blender-side failure', () => {
    const stderr = 'Traceback (most recent call last):\n  File "analyze.py", line 3\nKeyError: \'cycles\'\n';
    const error = analysisFailure({ ...base, stdout: '', stderr }, context);
    expect(error.toReason()).toMatchObject({ name: 'AnalysisFailed', type: 'blender' });
    expect(error.message).toContain("KeyError: 'cycles'");
  });
});

describe('analyzeScene, checks made before Blender starts', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
  const file = async (name: string, content: string | Buffer) => {
    const dir = await mkdtemp(join(tmpdir(), 'analyze-unit-'));
    dirs.push(dir);
    await writeFile(join(dir, name), content);
    return join(dir, name);
  };
  const options = { blenderPath: '/no/such/blender', nodeBlenderVersion: '3.4.1' };

  it('rejects a file that is not a .blend without running Blender', async () => {
    const scenePath = await file('notes.blend', 'these are my notes\n');
    await expect(analyzeScene({ ...options, scenePath })).rejects.toMatchObject({ name: 'NotABlendFile', type: 'scene' });
  });

  it('rejects the Blender 5 file format on a node that cannot read it', async () => {
    const scenePath = await file('future.blend', Buffer.concat([Buffer.from('BLENDER17-01v0500'), Buffer.alloc(64)]));
    const error = await analyzeScene({ ...options, scenePath }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'SceneTooNew', type: 'blender' });
    expect((error as Error).message).toContain('5.0');
  });

  it('reports a scene file that is not there, without the node\'s path', async () => {
    const error = await analyzeScene({ ...options, scenePath: '/no/such/scene.blend' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'SceneUnreadable', type: 'scene' });
    expect((error as Error).message).not.toContain('/no/such');
  });
});
