import { describe, expect, it } from 'vitest';
import { describeOutput, settingLabel, settingValue } from '../../../src/shared/contract/setting-labels';
import { compareSettings, FROM_SCENE } from '../../../src/shared/contract/settings-comparison';

describe('setting labels', () => {
  it('names the fields as an artist does', () => {
    expect(settingLabel('colorManagementPreset')).toBe('Colour management');
    expect(settingLabel('sampleCount')).toBe('Samples');
    expect(settingLabel('resolution')).toBe('Resolution');
    expect(settingLabel('frameRanges')).toBe('Frames');
    expect(settingLabel('outputSettings')).toBe('Output');
    expect(settingLabel('someNewField')).toBe('Some new field');
  });

  it('says values in words, never JSON', () => {
    expect(settingValue('resolution', [1920, 1080])).toBe('1920 × 1080 px');
    expect(settingValue('colorManagementPreset', 'aces')).toBe('ACES');
    expect(settingValue('renderEngine', 'BLENDER_EEVEE')).toBe('EEVEE');
    expect(settingValue('denoisingEnabled', false)).toBe('Off');
    expect(settingValue('frameRanges', ['1-10', '20'])).toBe('1-10, 20');
    const nested = settingValue('unknownThing', { tileSize: 64, useTiling: true });
    expect(nested).toBe('Tile size 64, Tiling On');
    expect(nested).not.toMatch(/[{}"]/);
  });

  it('gives the true format and depth of the output', () => {
    expect(describeOutput('OPEN_EXR', { colorDepth: '32', colorMode: 'RGBA', exrCodec: 'ZIP' })).toBe('OpenEXR, 32-bit float, RGBA (with alpha), ZIP compression');
    expect(describeOutput('OPEN_EXR', { colorDepth: '16' })).toBe('OpenEXR, 16-bit half float');
    expect(describeOutput('PNG', { colorDepth: '8', colorMode: 'RGB', exrCodec: 'ZIP' })).toBe('PNG, 8-bit, RGB');
  });
});

describe('compareSettings', () => {
  const requested = { colorManagementPreset: 'aces', sampleCount: 64, frameRanges: ['1-12'], outputFormat: 'OPEN_EXR' };
  const final = {
    colorManagementPreset: 'default',
    sampleCount: 64,
    frameRanges: ['1-12'],
    resolution: [1920, 1080],
    resolutionPercentage: 100,
    renderEngine: 'CYCLES',
    outputFormat: 'OPEN_EXR',
    outputSettings: { colorMode: 'RGBA', colorDepth: '32' },
    outputMediaType: 'IMAGE',
    gpuCount: 0,
    adjustments: [{ field: 'colorManagementPreset', requested: 'aces', used: 'default', reason: 'No ACES view transform here; the scene’s "Filmic" was kept.' }],
  };
  const rows = compareSettings(requested, final);

  it('lists the main settings first, with labels and words', () => {
    expect(rows.map((r) => r.label)).toEqual(['Frames', 'Resolution', 'Resolution scale', 'Samples', 'Render engine', 'Output', 'Colour management']);
    expect(rows.find((r) => r.field === 'resolution')).toMatchObject({ requested: FROM_SCENE, used: '1920 × 1080 px', changed: false });
  });

  it('shows a change with the farm’s reason', () => {
    expect(rows.find((r) => r.field === 'colorManagementPreset')).toEqual({
      field: 'colorManagementPreset',
      label: 'Colour management',
      requested: 'ACES',
      used: 'The scene’s own',
      changed: true,
      reason: 'No ACES view transform here; the scene’s "Filmic" was kept.',
    });
  });

  it('joins format and output settings into one Output line with the true depth', () => {
    expect(rows.find((r) => r.field === 'output')).toMatchObject({ requested: 'OpenEXR', used: 'OpenEXR, 32-bit float, RGBA (with alpha)', changed: false });
  });

  it('leaves out unchanged details and never shows a field name', () => {
    expect(rows.some((r) => r.field === 'gpuCount' || r.field === 'outputMediaType')).toBe(false);
    for (const row of rows) expect(`${row.label} ${row.requested} ${row.used}`).not.toMatch(/\b[a-z]+[A-Z]|[{}]/);
  });
});
