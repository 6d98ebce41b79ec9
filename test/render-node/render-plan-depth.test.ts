import { describe, expect, it } from 'vitest';
import { planRender } from '../../src/render-node/plan/render-plan';
import type { NodeCapabilities } from '../../src/render-node/plan/node-capabilities';
import { fitColorDepth } from '../../src/render-node/plan/output-adjusters';
import { sampleAnalysis } from '../fixtures/analysis';

const analysis = sampleAnalysis();

const caps: NodeCapabilities = { cyclesDevices: ['CPU'], openImageDenoise: true, optix: false, viewTransforms: ['Filmic'], eeveeUsable: true, totalMemoryBytes: 8 * 1024 ** 3 };
const dirs = { outputDir: '/data/jobs/j1/frames', compositeOutputDir: '/data/jobs/j1/composite' };

describe('fitColorDepth (what Blender writes when a format is switched)', () => {
  it('keeps a depth the format has and takes the highest otherwise', () => {
    expect(fitColorDepth('PNG', '16')).toBe('16');
    expect(fitColorDepth('OPEN_EXR', '8')).toBe('32');
    expect(fitColorDepth('OPEN_EXR_MULTILAYER', '16')).toBe('16');
    expect(fitColorDepth('TIFF', '32')).toBe('16');
    expect(fitColorDepth('JPEG', '16')).toBe('8');
    expect(fitColorDepth('PNG', null)).toBeNull();
  });
});

describe('planRender: the true colour depth of the output', () => {
  it('reports the 32-bit float an EXR render of an 8-bit PNG scene is written at, without calling it a change the artist asked for', () => {
    const result = planRender({ colorManagementPreset: 'default', outputFormat: 'OPEN_EXR' }, analysis, caps, dirs);
    if (!result.ok) throw new Error(result.message);
    expect(result.finalConfig.outputSettings.colorDepth).toBe('32');
    expect(result.plan.outputSettings.colorDepth).toBe('32');
    expect(result.finalConfig.adjustments).toEqual([]);
  });

  it('explains an asked depth the format does not have', () => {
    const result = planRender({ colorManagementPreset: 'default', outputFormat: 'JPEG', outputSettings: { colorDepth: '16' } }, analysis, caps, dirs);
    if (!result.ok) throw new Error(result.message);
    expect(result.finalConfig.outputSettings.colorDepth).toBe('8');
    expect(result.finalConfig.adjustments).toEqual([
      expect.objectContaining({ field: 'outputSettings', reason: 'JPEG has no 16-bit colour depth; written at 8-bit.' }),
    ]);
  });
});
