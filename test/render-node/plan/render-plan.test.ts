import { describe, expect, it } from 'vitest';
import type { RenderConfig, SceneAnalysis } from '../../../src/shared/api';
import { planRender, renderOrderOf, type PlanResult } from '../../../src/render-node/plan/render-plan';
import type { NodeCapabilities } from '../../../src/render-node/plan/node-capabilities';
import { fileNamePatternFrom } from '../../../src/render-node/plan/output-adjusters';

function analysis(overrides: Partial<SceneAnalysis> = {}): SceneAnalysis {
  return {
    savedWithBlender: '4.2.0',
    nodeBlender: '4.2.3',
    savedWithNewerBlender: false,
    scene: 'Scene',
    engine: 'CYCLES',
    frameStart: 1,
    frameEnd: 10,
    frameStep: 1,
    fps: 24,
    fpsBase: 1,
    resolution: [1920, 1080],
    resolutionPercentage: 100,
    samples: 128,
    denoisingEnabled: true,
    denoiser: 'OPENIMAGEDENOISE',
    cameras: ['Camera', 'CloseUp'],
    activeCamera: 'Camera',
    viewLayers: [
      { name: 'ViewLayer', useForRender: true },
      { name: 'Background', useForRender: false },
    ],
    activeViewLayer: 'ViewLayer',
    outputFormat: 'PNG',
    outputSettings: { colorMode: 'RGBA', colorDepth: '8', exrCodec: null, tiffCodec: null, compression: 15, quality: null },
    outputPath: '//render/shot_####',
    colorManagement: {
      displayDevice: 'sRGB',
      viewTransform: 'AgX',
      look: 'None',
      exposure: 0,
      gamma: 1,
      sequencer: 'sRGB',
      availableViewTransforms: ['Standard', 'Filmic', 'AgX', 'Raw'],
    },
    usesCompositor: false,
    rendersSequencer: false,
    dependencies: [],
    warnings: [],
    totalFrames: 10,
    ...overrides,
  };
}

function caps(overrides: Partial<NodeCapabilities> = {}): NodeCapabilities {
  return {
    cyclesDevices: ['CPU'],
    openImageDenoise: true,
    optix: false,
    viewTransforms: ['Standard', 'Filmic', 'AgX', 'Raw'],
    eeveeUsable: true,
    totalMemoryBytes: 16 * 1024 ** 3,
    ...overrides,
  };
}

const dirs = { outputDir: '/data/jobs/j1/frames', compositeOutputDir: '/data/jobs/j1/composite' };

function plan(requested: Partial<RenderConfig>, a: SceneAnalysis = analysis(), c: NodeCapabilities = caps()) {
  const result = planRender({ colorManagementPreset: 'default', ...requested }, a, c, dirs);
  if (!result.ok) throw new Error(`expected a plan, got ${result.code}: ${result.message}`);
  return result;
}

function refusal(requested: Partial<RenderConfig>, a: SceneAnalysis = analysis(), c: NodeCapabilities = caps()) {
  const result: PlanResult = planRender({ colorManagementPreset: 'default', ...requested }, a, c, dirs);
  if (result.ok) throw new Error('expected the plan to be refused');
  return result;
}

describe('planRender: values taken from the scene', () => {
  it('fills every omitted field from the analysis, with no adjustments', () => {
    const { finalConfig, plan: p } = plan({});
    expect(finalConfig.adjustments).toEqual([]);
    expect(finalConfig).toMatchObject({
      colorManagementPreset: 'default',
      frameRanges: ['1-10'],
      renderEngine: 'CYCLES',
      computeDeviceType: 'CPU',
      compositorDevice: 'CPU',
      gpuCount: 0,
      sampleCount: 128,
      denoisingEnabled: true,
      denoiserType: 'OPENIMAGEDENOISE',
      resolution: [1920, 1080],
      resolutionPercentage: 100,
      outputFormat: 'PNG',
      outputMediaType: 'IMAGE',
      fps: 24,
      videoOutput: false,
      activeCamera: 'Camera',
      activeViewLayer: 'ViewLayer',
    });
    expect(p).toEqual({
      frames: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      frameOrder: 'spread',
      outputDir: dirs.outputDir,
      fileNamePattern: 'shot_####',
      outputFormat: 'PNG',
      outputSettings: analysis().outputSettings,
      engine: 'CYCLES',
      samples: 128,
      resolution: [1920, 1080],
      resolutionPercentage: 100,
      camera: 'Camera',
      viewLayer: 'ViewLayer',
      denoise: { enabled: true, denoiser: 'OPENIMAGEDENOISE' },
      device: 'CPU',
      useTiling: null,
      tileSize: null,
      fps: 24,
      colorManagement: { viewTransform: null, look: null },
      compositeOutputDir: dirs.compositeOutputDir,
      previewPath: null,
      previewDir: null,
      previewMaxSize: 512,
      video: null,
    });
  });

  it('renders the frames spread across the shot by default, in frame order when asked; the plan keeps them in frame order', () => {
    const spread = planRender({ colorManagementPreset: 'default' }, analysis(), caps(), dirs);
    expect(spread.ok && [spread.plan.frames, spread.plan.frameOrder, renderOrderOf(spread.plan)]).toEqual([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 'spread', [1, 10, 5, 3, 7, 2, 4, 6, 8, 9]]);
    const inOrder = planRender({ colorManagementPreset: 'default', frameOrder: 'sequential' }, analysis(), caps(), dirs);
    expect(inOrder.ok && [inOrder.plan.frameOrder, renderOrderOf(inOrder.plan)]).toEqual(['sequential', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]]);
    expect(renderOrderOf({ frames: [1, 2, 3], frameOrder: undefined })).toEqual([1, 2, 3]);
  });

  it('names the folders for the previews when the node gives them', () => {
    const planned = planRender({ colorManagementPreset: 'default' }, analysis(), caps(), { ...dirs, previewPath: '/data/jobs/j1/package/preview.png', previewDir: '/data/jobs/j1/previews' });
    expect(planned.ok && [planned.plan.previewPath, planned.plan.previewDir, planned.plan.previewMaxSize]).toEqual(['/data/jobs/j1/package/preview.png', '/data/jobs/j1/previews', 512]);
  });

  it('uses the scene frame step', () => {
    const { finalConfig, plan: p } = plan({}, analysis({ frameStart: 1, frameEnd: 10, frameStep: 3 }));
    expect(p.frames).toEqual([1, 4, 7, 10]);
    expect(finalConfig.frameRanges).toEqual(['1-10/3']);
  });

  it('treats an empty frameRanges as the scene range, and says so in the final config', () => {
    const { finalConfig, plan: p } = plan({ frameRanges: [] }, analysis({ frameStart: 1, frameEnd: 10, frameStep: 2 }));
    expect(p.frames).toEqual([1, 3, 5, 7, 9]);
    expect(finalConfig.frameRanges).toEqual(['1-10/2']);
  });

  it('leaves sampleCount out when the scene has no sample count', () => {
    const { finalConfig, plan: p } = plan({}, analysis({ samples: null }));
    expect(finalConfig).not.toHaveProperty('sampleCount');
    expect(p.samples).toBeNull();
  });

  it('refuses a scene whose own range holds no frames', () => {
    expect(refusal({}, analysis({ frameStart: 10, frameEnd: 1 })).code).toBe('invalid_frame_ranges');
  });

  it('refuses a scene without any camera when none is requested', () => {
    const r = refusal({}, analysis({ cameras: [], activeCamera: null }));
    expect(r.code).toBe('no_camera');
    expect(r.message).toMatch(/activeCamera/);
  });

  it('plans a scene whose frames come from its video sequencer without a camera', () => {
    const { finalConfig, plan: p } = plan({}, analysis({ cameras: [], activeCamera: null, rendersSequencer: true }));
    expect(p.camera).toBeNull();
    expect(finalConfig).not.toHaveProperty('activeCamera');
    expect(refusal({ activeCamera: 'Nowhere' }, analysis({ cameras: [], activeCamera: null, rendersSequencer: true })).code).toBe('unknown_camera');
  });
});

describe('planRender: requested values', () => {
  it('lets requested values override the analysis', () => {
    const { finalConfig, plan: p } = plan({
      sampleCount: 16,
      resolution: [640, 360],
      resolutionPercentage: 50,
      fps: 30,
      outputFormat: 'OPEN_EXR',
      activeCamera: 'CloseUp',
      activeViewLayer: 'Background',
      useTiling: true,
      tileSize: 256,
      notes: 'preview',
      outputSettings: { colorDepth: '16', exrCodec: 'ZIP' },
    });
    expect(finalConfig.adjustments).toEqual([]);
    expect(finalConfig).toMatchObject({ sampleCount: 16, resolution: [640, 360], notes: 'preview', useTiling: true, tileSize: 256 });
    expect(p).toMatchObject({
      samples: 16,
      resolution: [640, 360],
      resolutionPercentage: 50,
      fps: 30,
      outputFormat: 'OPEN_EXR',
      camera: 'CloseUp',
      viewLayer: 'Background',
      useTiling: true,
      tileSize: 256,
    });
    expect(p.outputSettings).toEqual({ colorMode: 'RGBA', colorDepth: '16', exrCodec: 'ZIP', tiffCodec: null, compression: 15, quality: null });
  });

  it('parses frameRanges into the sorted frames to render', () => {
    const { finalConfig, plan: p } = plan({ frameRanges: ['1-3', '5'] });
    expect(p.frames).toEqual([1, 2, 3, 5]);
    expect(finalConfig.frameRanges).toEqual(['1-3', '5']);
  });

  it('refuses invalid frameRanges', () => {
    for (const bad of [['a'], ['5-1'], ['1-10/0'], ['']]) {
      const r = refusal({ frameRanges: bad });
      expect(r.code).toBe('invalid_frame_ranges');
      expect(r.message).toMatch(/^frameRanges: /);
    }
  });

  it('refuses an unknown camera, listing the scene cameras', () => {
    const r = refusal({ activeCamera: 'Drone' });
    expect(r.code).toBe('unknown_camera');
    expect(r.message).toContain('"Drone"');
    expect(r.message).toContain('Camera, CloseUp');
  });

  it('refuses an unknown view layer, listing the scene layers', () => {
    const r = refusal({ activeViewLayer: 'Nope' });
    expect(r.code).toBe('unknown_view_layer');
    expect(r.message).toContain('ViewLayer, Background');
  });

  it('keeps a requested GPU device the node has', () => {
    const { finalConfig, plan: p } = plan({ computeDeviceType: 'CUDA', gpuCount: 2 }, analysis(), caps({ cyclesDevices: ['CPU', 'CUDA'] }));
    expect(p.device).toBe('CUDA');
    expect(finalConfig.gpuCount).toBe(2);
    expect(finalConfig.adjustments).toEqual([]);
  });

  it('keeps OptiX denoising on a node that has it', () => {
    const { plan: p, finalConfig } = plan({ denoiserType: 'OPTIX' }, analysis(), caps({ optix: true }));
    expect(p.denoise).toEqual({ enabled: true, denoiser: 'OPTIX' });
    expect(finalConfig.adjustments).toEqual([]);
  });

  it('reads NONE as the CPU', () => {
    const { plan: p, finalConfig } = plan({ computeDeviceType: 'NONE' });
    expect(p.device).toBe('CPU');
    expect(finalConfig.computeDeviceType).toBe('CPU');
  });
});

describe('planRender: adjustments', () => {
  it('switches denoising off when the node has no denoiser', () => {
    const { finalConfig, plan: p } = plan(
      { denoisingEnabled: true, denoiserType: 'OPENIMAGEDENOISE' },
      analysis(),
      caps({ openImageDenoise: false, optix: false }),
    );
    expect(p.denoise).toEqual({ enabled: false, denoiser: null });
    expect(finalConfig.denoisingEnabled).toBe(false);
    expect(finalConfig.adjustments).toEqual([expect.objectContaining({ field: 'denoisingEnabled', requested: true, used: false })]);
  });

  it('switches OptiX denoising off when neither OptiX nor OpenImageDenoise exist', () => {
    const { plan: p, finalConfig } = plan({ denoiserType: 'OPTIX' }, analysis(), caps({ openImageDenoise: false, optix: false }));
    expect(p.denoise.enabled).toBe(false);
    expect(finalConfig.adjustments).toEqual([expect.objectContaining({ field: 'denoisingEnabled', used: false })]);
  });

  it('does not adjust anything when denoising is off', () => {
    const { finalConfig, plan: p } = plan({ denoisingEnabled: false }, analysis(), caps({ openImageDenoise: false }));
    expect(p.denoise).toEqual({ enabled: false, denoiser: null });
    expect(finalConfig.adjustments).toEqual([]);
  });

  it('denoises with OpenImageDenoise when OptiX is asked for but missing', () => {
    const { finalConfig, plan: p } = plan({ denoiserType: 'OPTIX' }, analysis(), caps({ optix: false, openImageDenoise: true }));
    expect(p.denoise).toEqual({ enabled: true, denoiser: 'OPENIMAGEDENOISE' });
    expect(finalConfig.denoiserType).toBe('OPENIMAGEDENOISE');
    expect(finalConfig.adjustments).toEqual([
      expect.objectContaining({ field: 'denoiserType', requested: 'OPTIX', used: 'OPENIMAGEDENOISE' }),
    ]);
  });

  it('renders a CUDA request on the CPU of a CPU-only node, with no GPUs', () => {
    const { finalConfig, plan: p } = plan({ computeDeviceType: 'CUDA', gpuCount: 2 });
    expect(p.device).toBe('CPU');
    expect(finalConfig.computeDeviceType).toBe('CPU');
    expect(finalConfig.gpuCount).toBe(0);
    expect(finalConfig.adjustments).toEqual([
      expect.objectContaining({ field: 'computeDeviceType', requested: 'CUDA', used: 'CPU' }),
      expect.objectContaining({ field: 'gpuCount', requested: 2, used: 0 }),
    ]);
    expect(finalConfig.adjustments[0]!.reason).toMatch(/no CUDA device/);
  });

  it('zeroes a GPU count on the CPU', () => {
    const { finalConfig } = plan({ gpuCount: 1 });
    expect(finalConfig.gpuCount).toBe(0);
    expect(finalConfig.adjustments).toEqual([expect.objectContaining({ field: 'gpuCount', requested: 1, used: 0 })]);
  });

  it('composites on the CPU', () => {
    const { finalConfig } = plan({ compositorDevice: 'GPU' });
    expect(finalConfig.compositorDevice).toBe('CPU');
    expect(finalConfig.adjustments).toEqual([expect.objectContaining({ field: 'compositorDevice', requested: 'GPU', used: 'CPU' })]);
  });

  it('renders EEVEE with Cycles when EEVEE cannot run on the node', () => {
    const { finalConfig, plan: p } = plan({ renderEngine: 'BLENDER_EEVEE_NEXT' }, analysis(), caps({ eeveeUsable: false }));
    expect(p.engine).toBe('CYCLES');
    expect(finalConfig.renderEngine).toBe('CYCLES');
    expect(finalConfig.adjustments).toEqual([
      expect.objectContaining({ field: 'renderEngine', requested: 'BLENDER_EEVEE_NEXT', used: 'CYCLES' }),
    ]);
  });

  it('switches a scene set to EEVEE too, but keeps EEVEE when it works or is unknown', () => {
    expect(plan({}, analysis({ engine: 'BLENDER_EEVEE' }), caps({ eeveeUsable: false })).plan.engine).toBe('CYCLES');
    expect(plan({}, analysis({ engine: 'BLENDER_EEVEE' }), caps({ eeveeUsable: true })).plan.engine).toBe('BLENDER_EEVEE');
    expect(plan({}, analysis({ engine: 'BLENDER_EEVEE' }), caps({ eeveeUsable: null })).plan.engine).toBe('BLENDER_EEVEE');
  });

  it('delivers images when video is asked for', () => {
    const { finalConfig } = plan({ outputMediaType: 'VIDEO' });
    expect(finalConfig.outputMediaType).toBe('IMAGE');
    expect(finalConfig.videoOutput).toBe(false);
    expect(finalConfig.adjustments).toEqual([expect.objectContaining({ field: 'outputMediaType', requested: 'VIDEO', used: 'IMAGE' })]);
  });

  it('turns videoOutput off on a node without FFmpeg and records why', () => {
    const { finalConfig } = plan({ videoOutput: true });
    expect(finalConfig.videoOutput).toBe(false);
    expect(finalConfig.outputMediaType).toBe('IMAGE');
    expect(finalConfig.adjustments).toHaveLength(1);
    expect(finalConfig.adjustments[0]!.reason).toBe('This farm cannot make videos (it has no FFmpeg), so the MP4 (H.264) video is not made: you get the frames as PNG images.');
  });

  it('makes the scene\'s video from PNG frames on a node with FFmpeg, and says so', () => {
    const video = { container: 'MPEG4', codec: 'H264', quality: 'MEDIUM', speed: 'GOOD', bitrateKbps: null, keyframeInterval: 12, maxBFrames: null, audioCodec: 'AAC' };
    const planned = planRender({ colorManagementPreset: 'default' }, analysis({ outputFormat: 'FFMPEG', video }), { ...caps(), videoEncoders: ['libx264'] }, dirs);
    if (!planned.ok) throw new Error(planned.message);
    expect(planned.plan).toMatchObject({ outputFormat: 'PNG', video: { encoder: 'libx264', muxer: 'mp4', label: 'MP4 (H.264)' } });
    expect(planned.finalConfig).toMatchObject({ outputFormat: 'PNG', outputMediaType: 'VIDEO', videoOutput: true });
    expect(planned.finalConfig.adjustments.map((a) => a.reason)).toEqual([
      'Frames are rendered as PNG images, then made into the MP4 (H.264) video on the farm; you get both.',
      'The video is made without sound.',
    ]);
  });

  it('writes PNG frames for a scene set to a video container', () => {
    const { finalConfig, plan: p } = plan({}, analysis({ outputFormat: 'FFMPEG' }));
    expect(p.outputFormat).toBe('PNG');
    expect(finalConfig.outputFormat).toBe('PNG');
    expect(finalConfig.adjustments).toEqual([expect.objectContaining({ field: 'outputFormat', requested: 'FFMPEG', used: 'PNG' })]);
  });

  it('keeps the scene colours when ACES is asked for but the node has no ACES view transform', () => {
    const { finalConfig, plan: p } = plan({ colorManagementPreset: 'aces' });
    expect(finalConfig.colorManagementPreset).toBe('default');
    expect(p.colorManagement.viewTransform).toBeNull();
    expect(finalConfig.adjustments).toEqual([expect.objectContaining({ field: 'colorManagementPreset', requested: 'aces', used: 'default' })]);
    expect(finalConfig.adjustments[0]!.reason).toContain('"AgX"');
  });

  it('uses the node ACES view transform for the aces preset', () => {
    const { finalConfig, plan: p } = plan(
      { colorManagementPreset: 'aces' },
      analysis(),
      caps({ viewTransforms: ['Standard', 'AgX', 'ACES 1.3 sRGB'] }),
    );
    expect(p.colorManagement.viewTransform).toBe('ACES 1.3 sRGB');
    expect(finalConfig.colorManagementPreset).toBe('aces');
    expect(finalConfig.adjustments).toEqual([]);
  });

  it('warns when the node has less memory than requested, keeping the request', () => {
    const { finalConfig } = plan({ minimumRam: 64 }, analysis(), caps({ totalMemoryBytes: 8 * 1024 ** 3 }));
    expect(finalConfig.minimumRam).toBe(64);
    expect(finalConfig.adjustments).toEqual([expect.objectContaining({ field: 'minimumRam', requested: 64, used: 8 })]);
    expect(plan({ minimumRam: 4 }, analysis(), caps({ totalMemoryBytes: 8 * 1024 ** 3 })).finalConfig.adjustments).toEqual([]);
  });

  it('records several adjustments together', () => {
    const { finalConfig } = plan(
      { renderEngine: 'BLENDER_EEVEE', computeDeviceType: 'OPTIX', outputMediaType: 'VIDEO', colorManagementPreset: 'aces' },
      analysis(),
      caps({ eeveeUsable: false }),
    );
    expect(finalConfig.adjustments.map((a) => a.field)).toEqual(['renderEngine', 'computeDeviceType', 'outputMediaType', 'colorManagementPreset']);
    for (const a of finalConfig.adjustments) expect(a.reason.length).toBeGreaterThan(10);
  });
});

describe('fileNamePatternFrom', () => {
  it('keeps a base name that already has frame marks', () => {
    expect(fileNamePatternFrom('//render/sample_####')).toBe('sample_####');
    expect(fileNamePatternFrom('//shot_##_v2')).toBe('shot_##_v2');
  });

  it('uses frame_#### for a folder or bare frame marks', () => {
    expect(fileNamePatternFrom('//render/')).toBe('frame_####');
    expect(fileNamePatternFrom('')).toBe('frame_####');
    expect(fileNamePatternFrom('//render/####')).toBe('frame_####');
  });

  it('appends frame marks to a plain base name', () => {
    expect(fileNamePatternFrom('/tmp/shot')).toBe('shot####');
    expect(fileNamePatternFrom('//render/shot.')).toBe('shot####');
  });

  it('takes the base name of Windows paths', () => {
    expect(fileNamePatternFrom('C:\\renders\\beauty_')).toBe('beauty_####');
  });

  it('replaces characters that do not belong in a file name', () => {
    expect(fileNamePatternFrom('//render/my shot:1*')).toBe('my_shot_1_####');
    expect(fileNamePatternFrom('//render/x"<>|?')).not.toMatch(/["<>|?]/);
  });
});
