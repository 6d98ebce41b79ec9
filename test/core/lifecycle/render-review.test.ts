import { describe, expect, it } from 'vitest';
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
