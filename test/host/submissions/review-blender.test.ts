import { describe, expect, it } from 'vitest';
import { blenderChoiceOf } from '../../../src/host/submissions/review-sheet';
import { configFromForm, formFromConfig } from '../../../src/renderer/lib/review-form';

describe('the Blender versions the review offers', () => {
  it('offers the versions at or above the scene\'s when there are several, the farm\'s choice named', () => {
    expect(blenderChoiceOf('3.4', ['4.3.2', '3.4.1', '5.2.2'])).toEqual({ farmChoice: '3.4.1', versions: ['3.4.1', '4.3.2', '5.2.2'] });
    expect(blenderChoiceOf('4.0', ['4.3.2', '3.4.1', '5.2.2'])).toEqual({ farmChoice: '4.3.2', versions: ['4.3.2', '5.2.2'] });
    expect(blenderChoiceOf(null, ['4.3.2', '3.4.1'])).toEqual({ farmChoice: '4.3.2', versions: ['3.4.1', '4.3.2'] });
  });

  it('offers nothing when only one version can open the scene, or the farm does not list them', () => {
    expect(blenderChoiceOf('4.3', ['4.3.2', '3.4.1'])).toBeUndefined();
    expect(blenderChoiceOf('3.4', ['3.4.1', '3.4.1'])).toBeUndefined();
    expect(blenderChoiceOf('3.4', null)).toBeUndefined();
    expect(blenderChoiceOf('3.4', [])).toBeUndefined();
  });

  it('sends the version picked, and nothing for the farm\'s choice', () => {
    const form = formFromConfig({ colorManagementPreset: 'default', blenderVersion: '4.3.2' });
    expect(form.blender).toBe('4.3.2');
    expect(configFromForm(form, { colorManagementPreset: 'default' })).toEqual({ colorManagementPreset: 'default', blenderVersion: '4.3.2' });
    expect(configFromForm({ ...form, blender: '' }, { colorManagementPreset: 'default', blenderVersion: '4.3.2' })).toEqual({ colorManagementPreset: 'default' });
  });
});
