import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDP_INT, type StoredScene } from '../../../src/blend/scene-settings';
import type { SceneReaderFacts } from '../../../src/render-node/blender/analysis-facts';
import { readSceneAnalysis, versionDoubt } from '../../../src/render-node/scene/read-analysis';
import { imageDependencies } from '../../../src/render-node/scene/read-analysis-dependencies';
import { outputOf } from '../../../src/render-node/scene/read-analysis-output';
import { colourOf, denoiseOf, pythonSorted, rendersSequencerOf, samplesOf } from '../../../src/render-node/scene/read-analysis-render';
import { SyntheticBlend } from '../../blend/helpers/synthetic-blend';

const reader: SceneReaderFacts = {
  version: '3.4.1',
  viewTransforms: ['Standard', 'Filmic', 'Raw'],
  displayDevices: ['sRGB', 'XYZ'],
  looks: ['None', 'Medium Contrast'],
  colorSpaces: ['sRGB', 'Linear', 'Non-Color'],
  facts: {
    fileVersion: [3, 4, 6],
    engines: ['BLENDER_EEVEE', 'BLENDER_WORKBENCH', 'CYCLES'],
    defaultDisplay: 'sRGB',
    defaultView: 'Filmic',
    cyclesSamples: 4096,
    cyclesDenoising: true,
    formats: [
      { name: 'PNG', value: 17, colorModes: ['BW', 'RGB', 'RGBA'], colorDepths: ['8', '16'], exrCodecs: {} },
      { name: 'JPEG', value: 4, colorModes: ['BW', 'RGB'], colorDepths: ['8'], exrCodecs: {} },
      { name: 'OPEN_EXR', value: 23, colorModes: ['BW', 'RGB', 'RGBA'], colorDepths: ['16', '32'], exrCodecs: { '16': ['ZIP', 'B44'], '32': ['ZIP'] } },
      { name: 'TIFF', value: 22, colorModes: ['BW', 'RGB', 'RGBA'], colorDepths: ['8', '16'], exrCodecs: {} },
    ],
    colorModes: { BW: 8, RGB: 24, RGBA: 32 },
    colorDepths: { '8': 2, '16': 16, '32': 64 },
    exrCodecs: { ZIP: 2, B44: 6 },
    tiffCodecs: { DEFLATE: 0, LZW: 1 },
  },
};

function scene(overrides: Partial<StoredScene> = {}): StoredScene {
  return {
    fileVersion: [3, 4, 6],
    name: 'Scene',
    engine: 'CYCLES',
    frameStart: 1,
    frameEnd: 3,
    frameStep: 1,
    fps: 24,
    fpsBase: 1,
    resolution: [64, 36],
    resolutionPercentage: 100,
    eeveeSamples: 16,
    cycles: new Map(),
    cameras: [],
    activeCamera: null,
    viewLayers: [],
    activeViewLayer: 'ViewLayer',
    image: { imtype: 17, planes: 32, depth: 2, quality: 90, compress: 15, exrCodec: 2, tiffCodec: 0 },
    outputPath: '//out_',
    colour: { display: 'sRGB', view: 'Filmic', look: 'None', exposure: 0, gamma: 1, sequencer: 'sRGB' },
    usesCompositor: false,
    sequencer: { enabled: true, strips: [] },
    images: [],
    ...overrides,
  };
}

const image = (o: Partial<StoredScene['image']>) => ({ ...scene().image, ...o });

describe('the output settings through the node Blender’s enum values', () => {
  it('names the format and keeps only the options analyze.py reports for it', () => {
    expect(outputOf(image({}), reader.facts)).toEqual({
      outputFormat: 'PNG',
      outputSettings: { colorMode: 'RGBA', colorDepth: '8', exrCodec: null, tiffCodec: null, compression: 15, quality: null },
    });
    expect(outputOf(image({ imtype: 23, depth: 16, exrCodec: 6 }), reader.facts).outputSettings.exrCodec).toBe('B44');
    expect(outputOf(image({ imtype: 22, tiffCodec: 1 }), reader.facts).outputSettings.tiffCodec).toBe('LZW');
    expect(outputOf(image({ imtype: 4, planes: 24 }), reader.facts).outputSettings.quality).toBe(90);
  });

  it('is unsure of formats, modes, depths and codecs this Blender would not take as stored', () => {
    expect(() => outputOf(image({ imtype: 24 }), reader.facts)).toThrow(/output format 24/);
    expect(() => outputOf(image({ imtype: 4, planes: 32 }), reader.facts)).toThrow(/colour mode RGBA/);
    expect(() => outputOf(image({ imtype: 4, planes: 24, depth: 16 }), reader.facts)).toThrow(/colour depth 16/);
    expect(() => outputOf(image({ imtype: 23, depth: 64, exrCodec: 6 }), reader.facts)).toThrow(/EXR codec B44/);
    expect(() => outputOf(image({ imtype: 22, tiffCodec: null }), reader.facts)).toThrow(/TIFF codec/);
  });
});

describe('samples, denoising and colour management', () => {
  it("uses what the file stores, else the node Blender's defaults", () => {
    expect(samplesOf(scene(), reader)).toBe(4096);
    expect(samplesOf(scene({ cycles: new Map([['samples', { type: IDP_INT, int: 12 }]]) }), reader)).toBe(12);
    expect(samplesOf(scene({ engine: 'BLENDER_EEVEE' }), reader)).toBe(16);
    expect(samplesOf(scene({ engine: 'BLENDER_WORKBENCH' }), reader)).toBeNull();
    expect(denoiseOf(scene(), reader)).toEqual({ denoisingEnabled: true, denoiser: 'OPENIMAGEDENOISE' });
    const optix = new Map([['denoiser', { type: IDP_INT, int: 2 }], ['use_denoising', { type: IDP_INT, int: 0 }]]);
    expect(denoiseOf(scene({ cycles: optix }), reader)).toEqual({ denoisingEnabled: false, denoiser: 'OPTIX' });
    expect(denoiseOf(scene({ engine: 'BLENDER_EEVEE' }), reader)).toEqual({ denoisingEnabled: false, denoiser: null });
  });

  it('is unsure of values stored as another type, unknown denoisers and unknown defaults', () => {
    expect(() => samplesOf(scene({ cycles: new Map([['samples', { type: 2, int: null }]]) }), reader)).toThrow(/another type/);
    expect(() => denoiseOf(scene({ cycles: new Map([['denoiser', { type: IDP_INT, int: 1 }]]) }), reader)).toThrow(/denoiser 1/);
    const noDefaults = { ...reader, facts: { ...reader.facts, cyclesSamples: null } };
    expect(() => samplesOf(scene(), noDefaults)).toThrow(/default/);
  });

  it('accepts colour names only where the node knows what Blender makes of them', () => {
    expect(colourOf(scene(), reader).availableViewTransforms).toEqual(reader.viewTransforms);
    expect(colourOf(scene({ colour: { ...scene().colour, look: 'Medium Contrast' } }), reader).look).toBe('Medium Contrast');
    expect(() => colourOf(scene({ colour: { ...scene().colour, display: 'XYZ' } }), reader)).toThrow(/display XYZ/);
    expect(() => colourOf(scene({ colour: { ...scene().colour, view: 'AgX' } }), reader)).toThrow(/AgX/);
    expect(() => colourOf(scene({ colour: { ...scene().colour, view: 'Standard', look: 'Medium Contrast' } }), reader)).toThrow(/look/);
    expect(() => colourOf(scene({ colour: { ...scene().colour, sequencer: 'Linear Rec.709' } }), reader)).toThrow(/Linear Rec.709/);
  });

  it("sorts camera names as Python's sorted does (by code point)", () => {
    expect(pythonSorted(['zed', 'Ézé', 'Alpha', '_under', '😀', 'ｚ'])).toEqual(['Alpha', '_under', 'zed', 'Ézé', 'ｚ', '😀']);
  });
});

describe('versions the reader answers for', () => {
  it('reads files of the node series, and older ones from 3.1 on a checked series only', () => {
    expect(versionDoubt([3, 4, 6], reader)).toBeNull();
    expect(versionDoubt([3, 1, 0], reader)).toBeNull();
    expect(versionDoubt([3, 0, 40], reader)).toMatch(/may update/);
    expect(versionDoubt([3, 5, 0], reader)).toMatch(/newer/);
    const node42 = { ...reader, version: '4.2.0', facts: { ...reader.facts, fileVersion: [4, 2, 3] } };
    expect(versionDoubt([4, 2, 1], node42)).toBeNull();
    expect(versionDoubt([4, 1, 9], node42)).toMatch(/may update/);
    const node5 = { ...reader, version: '5.0.0', facts: { ...reader.facts, fileVersion: [5, 0, 1] } };
    expect(versionDoubt([5, 0, 1], node5)).toMatch(/does not know/);
  });
});

describe('image dependencies as the analysis script gives them', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'rd-read-deps-'));
    await mkdir(join(root, 'tex'));
    await writeFile(join(root, 'tex', 'wood.png'), 'png');
    await mkdir(join(root, '.renderdrop-not-uploaded'));
    await writeFile(join(root, '.renderdrop-not-uploaded', 'cut.png'), 'png');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('resolves, checks and words each image like analyze.py', async () => {
    const base = { blendPath: join(root, 'shot.blend'), root };
    const { dependencies, warnings } = await imageDependencies(
      [
        { name: 'Wood', path: '//tex/wood.png' },
        { name: 'Gone', path: '//tex/gone.png' },
        { name: 'Far', path: '//../far.png' },
        { name: 'Abs', path: '///etc/hostname' },
        { name: 'Cut', path: '//.renderdrop-not-uploaded/cut.png' },
        { name: 'Wood', path: '//tex/./wood.png' },
      ],
      base,
    );
    expect(dependencies.map((d) => [d.name, d.resolvedPath, d.exists])).toEqual([
      ['Wood', 'tex/wood.png', true],
      ['Gone', 'tex/gone.png', false],
      ['Far', null, false],
      ['Abs', null, false],
      ['Cut', null, false],
    ]);
    expect(warnings.map((w) => w.path)).toEqual(['//tex/gone.png', '//../far.png', '///etc/hostname', '//.renderdrop-not-uploaded/cut.png']);
    expect(warnings[0]!.message).toBe('Image "Gone" is missing: //tex/gone.png was not uploaded with the scene.');
    expect(warnings[1]!.message).toMatch(/^Image "Far" uses \/\/\.\.\/far\.png, outside the uploaded files: the node never reads it\./);
  });

  it('is unsure of paths with backslashes', async () => {
    await expect(imageDependencies([{ name: 'W', path: '//tex\\wood.png' }], { blendPath: join(root, 's.blend'), root })).rejects.toThrow(/backslashes/);
  });

  it('leaves a file without a scene, or that is no .blend, to Blender', async () => {
    const blend = join(root, 'no-scene.blend');
    await writeFile(blend, new SyntheticBlend({}).build());
    expect(await readSceneAnalysis(blend, root, reader)).toMatchObject({ ok: false, unsure: expect.stringMatching(/global block|current scene/) });
    const text = join(root, 'notes.blend');
    await writeFile(text, 'just some notes');
    expect(await readSceneAnalysis(text, root, reader)).toMatchObject({ ok: false, unsure: expect.stringMatching(/cannot open/) });
    expect(await readSceneAnalysis('relative/x.blend', root, reader)).toMatchObject({ ok: false });
  });
});

describe('whether the frames come from the sequencer (Blender\'s RE_seq_render_active)', () => {
  const COLOR = 28;
  const SOUND = 4;
  const IMAGE = 0;
  const strip = (type: number, muted = false) => ({ type, muted });
  const at = (fileVersion: number[]) => ({ facts: { ...reader.facts, fileVersion } });

  it('needs the Sequencer option and a strip that makes a picture: a sound strip alone does not', () => {
    expect(rendersSequencerOf({ sequencer: { enabled: true, strips: [strip(COLOR)] } }, at([3, 4, 6]))).toBe(true);
    expect(rendersSequencerOf({ sequencer: { enabled: false, strips: [strip(COLOR)] } }, at([3, 4, 6]))).toBe(false);
    expect(rendersSequencerOf({ sequencer: { enabled: true, strips: [] } }, at([3, 4, 6]))).toBe(false);
    expect(rendersSequencerOf({ sequencer: { enabled: true, strips: [strip(SOUND)] } }, at([3, 4, 6]))).toBe(false);
  });

  it('counts muted strips as Blender 3.4 to 4.x does, and leaves them out from Blender 5.0', () => {
    const muted = { sequencer: { enabled: true, strips: [strip(COLOR, true), strip(SOUND)] } };
    expect(rendersSequencerOf(muted, at([3, 4, 6]))).toBe(true);
    expect(rendersSequencerOf(muted, at([4, 3, 2]))).toBe(true);
    expect(rendersSequencerOf(muted, at([5, 0, 1]))).toBe(false);
    expect(rendersSequencerOf(muted, at([5, 2, 2]))).toBe(false);
    expect(rendersSequencerOf({ sequencer: { enabled: true, strips: [strip(COLOR, true), strip(IMAGE)] } }, at([5, 2, 2]))).toBe(true);
  });
});
