import { describe, expect, it } from 'vitest';
import { missingChoices } from '../../../src/core/lifecycle/render-choices';
import { renderConfigFor, renderConfigProblem } from '../../../src/core/lifecycle/render-review';
import { sampleAnalysis } from '../../fixtures/analysis';
import { submissionRecordAt } from '../../fixtures/submission-record';

describe('render review', () => {
  it('catches a camera the scene does not have before anything is sent', () => {
    expect(renderConfigProblem(sampleAnalysis(), { colorManagementPreset: 'default', activeCamera: 'Drone' })).toMatch(/no camera "Drone".*Camera, CloseUp/);
    expect(renderConfigProblem(sampleAnalysis(), { colorManagementPreset: 'default', activeCamera: 'CloseUp' })).toBeNull();
    expect(renderConfigProblem(null, { colorManagementPreset: 'default', activeCamera: 'Drone' })).toBeNull();
  });

  it('renders with the settings chosen, else the recorded ones when the API accepts them, else the default', () => {
    const recorded = submissionRecordAt('validated', { renderConfig: { colorManagementPreset: 'aces', sampleCount: 8 } });
    expect(renderConfigFor(recorded, { colorManagementPreset: 'default', frameRanges: ['1'] })).toEqual({ colorManagementPreset: 'default', frameRanges: ['1'] });
    expect(renderConfigFor(recorded)).toEqual({ colorManagementPreset: 'aces', sampleCount: 8 });
    expect(renderConfigFor(submissionRecordAt('validated', { renderConfig: { colorManagementPreset: 'sepia' } }))).toEqual({ colorManagementPreset: 'default' });
    expect(renderConfigFor(submissionRecordAt('validated'))).toEqual({ colorManagementPreset: 'default' });
  });
});

describe('what a render still needs chosen', () => {
  const noCamera = sampleAnalysis({ activeCamera: null });
  const noLayer = sampleAnalysis({ viewLayers: [{ name: 'ViewLayer', useForRender: false }, { name: 'Background', useForRender: false }] });

  it('refuses to render without a camera when none is active, naming the cameras there are', () => {
    expect(renderConfigProblem(noCamera, { colorManagementPreset: 'default' })).toBe(
      'The scene has no active camera, so nothing was rendered. Submit it again choosing one of its cameras: Camera, CloseUp.',
    );
    expect(renderConfigProblem(noCamera, { colorManagementPreset: 'default', activeCamera: 'CloseUp' })).toBeNull();
    expect(renderConfigProblem(sampleAnalysis({ activeCamera: null, cameras: [] }), { colorManagementPreset: 'default' })).toMatch(/^The scene has no camera, so nothing can be rendered\. Add a camera/);
  });

  it('needs no camera or view layer for a scene whose frames come from its video sequencer', () => {
    const edit = sampleAnalysis({ activeCamera: null, cameras: [], viewLayers: [{ name: 'ViewLayer', useForRender: false }], rendersSequencer: true });
    expect(renderConfigProblem(edit, { colorManagementPreset: 'default' })).toBeNull();
    expect(missingChoices(edit, { colorManagementPreset: 'default' })).toEqual({ camera: null, viewLayer: null });
    expect(renderConfigProblem({ ...edit, rendersSequencer: 'yes' }, { colorManagementPreset: 'default' })).toMatch(/^The scene has no camera, so nothing can be rendered/);
  });

  it('refuses a view layer the scene lacks, and only warns when none is enabled', () => {
    expect(renderConfigProblem(sampleAnalysis(), { colorManagementPreset: 'default', activeViewLayer: 'Foreground' })).toMatch(/no view layer "Foreground" \(it has: ViewLayer, Background\)/);
    expect(renderConfigProblem(noLayer, { colorManagementPreset: 'default' })).toBeNull();
    expect(missingChoices(noLayer, { colorManagementPreset: 'default' })).toEqual({ camera: null, viewLayer: ['ViewLayer', 'Background'] });
    expect(missingChoices(noLayer, { colorManagementPreset: 'default', activeViewLayer: 'Background' })).toEqual({ camera: null, viewLayer: null });
  });

  it('needs nothing chosen for a scene an analysis of another shape describes', () => {
    expect(missingChoices({ scene: 'Scene' }, { colorManagementPreset: 'default' })).toEqual({ camera: null, viewLayer: null });
    expect(missingChoices(null, { colorManagementPreset: 'default' })).toEqual({ camera: null, viewLayer: null });
    expect(renderConfigProblem({ cameras: 'Camera', activeCamera: 3 }, { colorManagementPreset: 'default' })).toBeNull();
  });
});
