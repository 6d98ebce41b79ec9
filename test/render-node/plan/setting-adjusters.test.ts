import { describe, expect, it } from 'vitest';
import type { RenderConfig } from '../../../src/shared/api';
import type { NodeCapabilities } from '../../../src/render-node/plan/node-capabilities';
import { adjustDenoising, adjustDevice, adjustEngine, adjustGpuCount, checkMemory } from '../../../src/render-node/plan/device-adjusters';
import { adjustColorManagement, adjustFileSettings, adjustMediaType, adjustOutputFormat } from '../../../src/render-node/plan/output-adjusters';
import { chooseCamera, chooseFrames, chooseViewLayer } from '../../../src/render-node/plan/scene-choices';
import { sampleAnalysis } from '../../fixtures/analysis';

const analysis = sampleAnalysis();
const caps: NodeCapabilities = {
  cyclesDevices: ['CPU'],
  openImageDenoise: true,
  optix: false,
  viewTransforms: ['Standard', 'AgX'],
  eeveeUsable: false,
  totalMemoryBytes: 8 * 1024 ** 3,
};
const request = (fields: Partial<RenderConfig> = {}): RenderConfig => ({ colorManagementPreset: 'default', ...fields });

describe('each setting adjuster decides its own setting', () => {
  it('keeps what the node can do, without adjustments', () => {
    expect(adjustEngine(request({ renderEngine: 'CYCLES' }), analysis, caps)).toEqual({ value: 'CYCLES', adjustments: [] });
    expect(adjustDevice(request(), caps)).toEqual({ value: 'CPU', adjustments: [] });
    expect(adjustMediaType(request())).toEqual({ value: { outputMediaType: 'IMAGE', videoOutput: false }, adjustments: [] });
    expect(checkMemory(request({ minimumRam: 4 }), caps)).toEqual({ value: 4, adjustments: [] });
  });

  it('changes what the node cannot do and says why', () => {
    const engine = adjustEngine(request({ renderEngine: 'BLENDER_EEVEE_NEXT' }), analysis, caps);
    expect(engine.value).toBe('CYCLES');
    expect(engine.adjustments).toEqual([{ field: 'renderEngine', requested: 'BLENDER_EEVEE_NEXT', used: 'CYCLES', reason: expect.stringContaining('GPU display context') }]);
    const device = adjustDevice(request({ computeDeviceType: 'CUDA' }), caps);
    expect(device.value).toBe('CPU');
    expect(adjustGpuCount(request({ gpuCount: 2 }), device.value)).toMatchObject({ value: 0, adjustments: [{ field: 'gpuCount', requested: 2, used: 0 }] });
    expect(adjustMediaType(request({ outputMediaType: 'VIDEO', videoOutput: true })).adjustments.map((a) => a.field)).toEqual(['outputMediaType', 'videoOutput']);
  });

  it('switches OptiX denoising to OpenImageDenoise, and denoising off without any denoiser', () => {
    expect(adjustDenoising(request({ denoisingEnabled: true, denoiserType: 'OPTIX' }), analysis, caps).value).toEqual({ enabled: true, denoiser: 'OPENIMAGEDENOISE' });
    const off = adjustDenoising(request({ denoisingEnabled: true }), analysis, { ...caps, openImageDenoise: false });
    expect(off.value.enabled).toBe(false);
    expect(off.adjustments[0]?.field).toBe('denoisingEnabled');
  });

  it('only warns about memory: the requested amount is kept', () => {
    const memory = checkMemory(request({ minimumRam: 64 }), caps);
    expect(memory).toMatchObject({ value: 64, adjustments: [{ field: 'minimumRam', requested: 64, used: 8 }] });
  });

  it('writes video formats as PNG frames and fits the colour depth to the format', () => {
    expect(adjustOutputFormat(request(), { ...analysis, outputFormat: 'FFMPEG' }).value).toBe('PNG');
    const asked = adjustFileSettings(request({ outputSettings: { colorDepth: '8' } }), analysis, 'OPEN_EXR');
    expect(asked.value.colorDepth).toBe('32');
    expect(asked.adjustments[0]?.field).toBe('outputSettings');
    const scenes = adjustFileSettings(request(), { ...analysis, outputSettings: { ...analysis.outputSettings, colorDepth: '8' } }, 'OPEN_EXR');
    expect(scenes).toMatchObject({ value: { colorDepth: '32' }, adjustments: [] });
  });

  it('keeps the scene colour management when this Blender has no ACES', () => {
    expect(adjustColorManagement(request({ colorManagementPreset: 'aces' }), analysis, caps)).toMatchObject({
      value: { preset: 'default', viewTransform: null },
      adjustments: [{ field: 'colorManagementPreset', requested: 'aces', used: 'default' }],
    });
    expect(adjustColorManagement(request({ colorManagementPreset: 'aces' }), analysis, { ...caps, viewTransforms: ['ACES 1.3'] }).value).toEqual({ preset: 'aces', viewTransform: 'ACES 1.3' });
  });
});

describe('scene choices refuse what the scene does not have', () => {
  it('refuses unknown cameras, view layers and empty frame ranges', () => {
    expect(chooseCamera(request({ activeCamera: 'Nope' }), analysis)).toMatchObject({ ok: false, code: 'unknown_camera' });
    expect(chooseViewLayer(request({ activeViewLayer: 'Nope' }), analysis)).toMatchObject({ ok: false, code: 'unknown_view_layer' });
    expect(chooseFrames(request({ frameRanges: ['x'] }), analysis)).toMatchObject({ ok: false, code: 'invalid_frame_ranges' });
  });

  it('falls back to the scene', () => {
    expect(chooseFrames(request(), { ...analysis, frameStart: 3, frameEnd: 5, frameStep: 1 })).toEqual({ ok: true, value: [3, 4, 5] });
    expect(chooseCamera(request(), analysis)).toEqual({ ok: true, value: analysis.activeCamera });
  });
});
