import { describe, expect, it } from 'vitest';
import { planSubmitAgain, settingsOfJob } from '../../../src/host/submissions/submit-again';
import { submissionRecordAt } from '../../fixtures/submission-record';

const requested = { colorManagementPreset: 'default', frameRanges: ['3-5'], sampleCount: 2, activeCamera: 'Cam.002', activeViewLayer: 'Fg' };

describe('settingsOfJob', () => {
  it('takes what the server says the job asked for', () => {
    expect(settingsOfJob(requested, submissionRecordAt('completed'))).toEqual(requested);
  });

  it('falls back to the settings the journal recorded, else none', () => {
    const recorded = { colorManagementPreset: 'aces', frameRanges: ['1'] };
    expect(settingsOfJob({ not: 'a config' }, submissionRecordAt('completed', { renderConfig: recorded }))).toEqual(recorded);
    expect(settingsOfJob(undefined, submissionRecordAt('completed'))).toBeUndefined();
  });
});

describe('planSubmitAgain', () => {
  it('sends the recorded scene file to review with the job settings and the chosen scene of a zip', async () => {
    const record = submissionRecordAt('completed', {
      file: { path: '/scenes/shots.zip', name: 'shots.zip', size: 10, mtimeMs: 1, fileType: 'zip' },
      validateBody: { scenePath: 'shot2/shot2.blend' },
    });
    const plan = await planSubmitAgain({ record, staged: false, requestedConfig: requested, exists: async () => true });
    expect(plan).toEqual({ file: { path: '/scenes/shots.zip', name: 'shots.zip' }, renderConfig: requested, scenePath: 'shot2/shot2.blend' });
  });

  it('says the file is gone, where the artist had it', async () => {
    const record = submissionRecordAt('completed');
    await expect(planSubmitAgain({ record, staged: false, requestedConfig: requested, exists: async () => false })).rejects.toThrow('a.blend is no longer at /scenes/a.blend. Drop the file again');
  });

  it('says the copy sent from the browser was cleaned up, without naming where it was kept', async () => {
    const record = submissionRecordAt('completed', { file: { path: '/config/staged/tok/a.blend', name: 'a.blend', size: 10, mtimeMs: 1, fileType: 'blend' } });
    const error = await planSubmitAgain({ record, staged: true, requestedConfig: requested, exists: async () => false }).catch((e: Error) => e);
    expect(String(error)).toContain('The copy of a.blend sent from the browser has been cleaned up');
    expect(String(error)).not.toContain('/config/staged');
  });

  it('says the scene file is unknown for a job sent from elsewhere', async () => {
    await expect(planSubmitAgain({ record: null, staged: false, requestedConfig: requested })).rejects.toThrow('its scene file is unknown');
  });
});
