import { describe, expect, it } from 'vitest';
import { farmChanges } from '../../../src/render-node/plan/farm-changes';
import type { NodeCapabilities } from '../../../src/render-node/plan/node-capabilities';
import { DEFAULT_RENDER_LIMITS } from '../../../src/render-node/plan/render-limits';
import { sampleAnalysis } from '../../fixtures/analysis';

const CAPS: NodeCapabilities = { cyclesDevices: ['CPU'], openImageDenoise: true, optix: false, viewTransforms: ['Standard', 'Filmic', 'AgX'], eeveeUsable: true, totalMemoryBytes: 16 * 1024 ** 3, videoEncoders: ['libx264'] };
const VIDEO = { container: 'MPEG4', codec: 'H264', quality: 'MEDIUM', speed: 'GOOD', bitrateKbps: null, keyframeInterval: 12, maxBFrames: null, audioCodec: 'NONE' };

describe('what the farm renders differently from the scene as saved, said at validation', () => {
  it('says nothing for a scene it renders as saved', () => {
    expect(farmChanges(sampleAnalysis(), CAPS, DEFAULT_RENDER_LIMITS)).toEqual([]);
  });

  it('names each setting changed, with the scene\'s value, the farm\'s and why', () => {
    const limits = { ...DEFAULT_RENDER_LIMITS, maxSamples: 4096 };
    expect(farmChanges(sampleAnalysis({ samples: 8192 }), CAPS, limits)).toEqual([
      { code: 'farm-change', message: 'Samples: 8192 in the scene, 4096 on this farm. This render node renders at most 4,096 samples per frame.' },
    ]);
    expect(farmChanges(sampleAnalysis({ denoisingEnabled: true, denoiser: 'OPENIMAGEDENOISE' }), { ...CAPS, openImageDenoise: false }, DEFAULT_RENDER_LIMITS)).toEqual([
      { code: 'farm-change', message: 'Denoising: On in the scene, Off on this farm. This Blender was built without OpenImageDenoise; denoising was switched off.' },
    ]);
  });

  it('does not say twice what a warning of the analysis already says', () => {
    const warned = sampleAnalysis({ denoisingEnabled: true, denoiser: 'OPENIMAGEDENOISE', warnings: [{ code: 'denoiser-unavailable', message: 'no denoiser here' }] });
    expect(farmChanges(warned, { ...CAPS, openImageDenoise: false }, DEFAULT_RENDER_LIMITS)).toEqual([]);
  });

  it('says a render its limits would refuse, before the artist presses Start', () => {
    const changes = farmChanges(sampleAnalysis({ frameStart: 1, frameEnd: 20_000, totalFrames: 20_000 }), CAPS, DEFAULT_RENDER_LIMITS);
    expect(changes).toEqual([{ code: 'farm-limit', message: expect.stringContaining('at most 10,000 frames per job') }]);
  });

  it('notes a video made from PNG frames, and warns that it is made without the scene\'s sound', () => {
    const video = sampleAnalysis({ outputFormat: 'FFMPEG', video: { ...VIDEO, audioCodec: 'AAC' } });
    expect(farmChanges(video, CAPS, DEFAULT_RENDER_LIMITS)).toEqual([
      { code: 'farm-delivery', message: 'Frames are rendered as PNG images, then made into the MP4 (H.264) video on the farm; you get both.' },
      { code: 'farm-change', message: 'The video is made without sound.' },
    ]);
  });
});
