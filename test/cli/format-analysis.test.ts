import { describe, expect, it } from 'vitest';
import { formatAnalysisSummary, summarizeAnalysis } from '../../src/cli/submit/format-analysis';
import { sampleAnalysis } from '../fixtures/analysis';

const missingTexture = {
  dependencies: [
    { kind: 'image' as const, name: 'albedo', path: '//textures/missing-albedo.png', resolvedPath: '/node/jobs/1/scene/textures/missing-albedo.png', packed: false, exists: false },
    { kind: 'image' as const, name: 'wood', path: '//textures/wood.png', resolvedPath: '/node/jobs/1/scene/textures/wood.png', packed: false, exists: true },
  ],
  warnings: [{ code: 'missing-dependency', message: 'Image "albedo" needs /node/jobs/1/scene/textures/missing-albedo.png, which is not there.', path: '/node/jobs/1/scene/textures/missing-albedo.png' }],
};

describe('analysis summary', () => {
  it('shows what the scene renders with when nothing is overridden', () => {
    const lines = formatAnalysisSummary({ fileName: 'shot.blend', jobId: 'job-1', analysis: sampleAnalysis(), renderConfig: { colorManagementPreset: 'default' } });
    expect(lines).toEqual([
      'shot.blend (job job-1)',
      '  Engine      Cycles',
      '  Frames      1-3 (3 frames)',
      '  Resolution  64 × 36 at 100% = 64 × 36 px',
      '  Samples     4',
      '  Camera      Camera; also in the scene: CloseUp',
      '  Output      PNG, RGBA 8-bit',
      '  Colour      default preset (scene view transform: Filmic)',
      '  Blender     saved with 3.4.1, rendered with 3.4.1',
    ]);
  });

  it('names the Blender version asked for (--blender-version)', () => {
    const { rows } = summarizeAnalysis(sampleAnalysis(), { colorManagementPreset: 'default', blenderVersion: '4.3' });
    expect(Object.fromEntries(rows).Blender).toBe('saved with 3.4.1, rendered with 4.3 (asked)');
  });

  it('shows each override beside the scene value', () => {
    const { rows, frameCount } = summarizeAnalysis(sampleAnalysis(), {
      colorManagementPreset: 'aces',
      frameRanges: ['1-10,20'],
      sampleCount: 16,
      resolutionPercentage: 200,
      activeCamera: 'CloseUp',
      outputFormat: 'JPEG',
    });
    const byLabel = Object.fromEntries(rows);
    expect(byLabel.Frames).toBe('1-10,20 (11 frames; scene: 1-3)');
    expect(frameCount).toBe(11);
    expect(byLabel.Samples).toBe('16 (scene: 4)');
    expect(byLabel.Resolution).toBe('64 × 36 at 200% = 128 × 72 px (scene: 100%)');
    expect(byLabel.Camera).toBe('CloseUp (scene: Camera); also in the scene: Camera');
    expect(byLabel.Output).toBe('JPEG (scene: PNG)');
    expect(byLabel.Colour).toMatch(/^aces preset/);
  });

  it('lists missing textures by the path stored in the scene, and every other warning', () => {
    const analysis = sampleAnalysis({
      ...missingTexture,
      savedWithBlender: '4.2',
      savedWithNewerBlender: true,
      warnings: [...missingTexture.warnings, { code: 'newer-blender', message: 'The scene was saved with Blender 4.2, newer than this node\'s 3.4.1.' }],
    });
    const lines = formatAnalysisSummary({ fileName: 'shot.blend', jobId: 'job-1', analysis, renderConfig: { colorManagementPreset: 'default' } });
    expect(lines).toContain('  2 warnings:');
    expect(lines).toContain('  ! Missing image "albedo": //textures/missing-albedo.png. Pack it into the .blend or send a .zip with it.');
    expect(lines).toContain("  ! The scene was saved with Blender 4.2, newer than this node's 3.4.1.");
    expect(lines.join('\n')).not.toContain('wood');
  });

  it('reports missing files the server lists only as dependencies, and warnings of unknown shape', () => {
    const { warnings } = summarizeAnalysis(
      { dependencies: [{ kind: 'library', name: 'props', path: '//lib/props.blend', exists: false, packed: false }], warnings: [{ code: 'odd', path: '/x/y' }, 'junk'] },
      { colorManagementPreset: 'default' },
    );
    expect(warnings).toEqual(['odd (/x/y)', 'Warning without a message.', 'Missing library "props": //lib/props.blend. Pack it into the .blend or send a .zip with it.']);
  });

  it('copes with a server that sends no analysis or another shape', () => {
    const none = formatAnalysisSummary({ fileName: 'a.zip', jobId: 'j', analysis: null, renderConfig: { colorManagementPreset: 'default', frameRanges: ['5'] } });
    expect(none[1]).toMatch(/no scene analysis/);
    expect(none.join('\n')).toMatch(/Frames +5 \(1 frame\)/);
    const other = summarizeAnalysis({ engine: 'BLENDER_EEVEE', resolution: 'big', frameStart: 10, frameEnd: 40, frameStep: 10 }, { colorManagementPreset: 'default' });
    expect(Object.fromEntries(other.rows)).toMatchObject({ Engine: 'EEVEE', Frames: '10-40 every 10 (4 frames)' });
  });

  it('says a camera must be chosen, names the cameras and the option, instead of the server\'s advice', () => {
    const analysis = sampleAnalysis({
      activeCamera: null,
      cameras: ['Camera', 'Close Up'],
      warnings: [{ code: 'no-active-camera', message: 'The scene has no active camera. Choose the camera to render from: "Camera", "Close Up".' }],
    });
    const lines = formatAnalysisSummary({ fileName: 'shot.blend', jobId: 'job-1', analysis, renderConfig: { colorManagementPreset: 'default' } });
    expect(lines).toContain('  Camera      none active (the scene has: Camera, Close Up)');
    expect(lines).toContain('  1 warning:');
    expect(lines).toContain('  ! The scene has no active camera, so nothing can be rendered. Its cameras: Camera, Close Up. Choose one with --camera, e.g. --camera Camera.');
    const chosen = summarizeAnalysis(analysis, { colorManagementPreset: 'default', activeCamera: 'Close Up' });
    expect(chosen.warnings).toEqual([]);
    expect(Object.fromEntries(chosen.rows).Camera).toBe('Close Up; also in the scene: Camera');
    const quoted = summarizeAnalysis(sampleAnalysis({ activeCamera: null, cameras: ['Close Up'] }), { colorManagementPreset: 'default' });
    expect(quoted.warnings[0]).toContain('e.g. --camera "Close Up".');
  });

  it('says a scene whose frames come from its video sequencer needs no camera, and warns of neither', () => {
    const analysis = sampleAnalysis({ activeCamera: null, cameras: [], rendersSequencer: true, viewLayers: [{ name: 'ViewLayer', useForRender: false }] });
    const { rows, warnings } = summarizeAnalysis(analysis, { colorManagementPreset: 'default' });
    expect(Object.fromEntries(rows).Camera).toBe('none needed: the frames come from the video sequencer');
    expect(Object.fromEntries(rows)).not.toHaveProperty('View layer');
    expect(warnings).toEqual([]);
  });

  it('says a scene has no camera at all, and that no view layer renders with the option that chooses one', () => {
    const analysis = sampleAnalysis({
      activeCamera: null,
      cameras: [],
      viewLayers: [{ name: 'ViewLayer', useForRender: false }, { name: 'Background', useForRender: false }],
      warnings: [{ code: 'no-view-layer-for-render', message: 'No view layer of the scene is enabled for rendering.' }],
    });
    const { rows, warnings } = summarizeAnalysis(analysis, { colorManagementPreset: 'default' });
    expect(warnings).toEqual([
      'The scene has no camera, so nothing can be rendered. Add a camera in Blender, make it the active camera and save the scene.',
      'No view layer of the scene is enabled for rendering. Its view layers: ViewLayer, Background. Choose one with --view-layer, e.g. --view-layer ViewLayer.',
    ]);
    expect(Object.fromEntries(rows)['View layer']).toBe('none enabled for rendering (the scene has: ViewLayer, Background)');
    const chosen = summarizeAnalysis(analysis, { colorManagementPreset: 'default', activeViewLayer: 'Background' });
    expect(Object.fromEntries(chosen.rows)['View layer']).toBe('Background (scene: ViewLayer)');
    expect(chosen.warnings).toHaveLength(1);
  });
});
