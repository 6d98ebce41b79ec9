import { describe, expect, it } from 'vitest';
import { submissionRecordAt } from '../../fixtures/submission-record';
import { SUBMISSION_STEPS } from '../../../src/core/journal/submission-record';
import { LIFECYCLE_STATES, lifecyclePhase, stopReached } from '../../../src/core/lifecycle/lifecycle-states';


describe('the lifecycle states', () => {
  it('has a state with work for every step but the last', () => {
    expect(Object.keys(LIFECYCLE_STATES)).toEqual([...SUBMISSION_STEPS]);
    expect(SUBMISSION_STEPS.filter((step) => LIFECYCLE_STATES[step].run === null)).toEqual(['downloaded']);
  });

  it('gives every step one phase, which the app and the CLI both show', () => {
    expect(SUBMISSION_STEPS.map((step) => lifecyclePhase(submissionRecordAt(step)))).toEqual([
      'packing',
      'packing',
      'packing',
      'uploading',
      'uploading',
      'creating',
      'creating',
      'validating',
      'validating',
      'review',
      'rendering',
      'downloading',
      'done',
    ]);
    expect(lifecyclePhase(submissionRecordAt('completed', { download: { wanted: false, dir: null } }))).toBe('done');
  });

  it('reaches a stop at its step and at every later one, and every stop once finished', () => {
    expect(SUBMISSION_STEPS.filter((step) => stopReached(submissionRecordAt(step), 'traced'))).toEqual(SUBMISSION_STEPS.slice(1));
    expect(SUBMISSION_STEPS.filter((step) => stopReached(submissionRecordAt(step), 'validated'))).toEqual(['validated', 'render-requested', 'completed', 'downloaded']);
    expect(SUBMISSION_STEPS.filter((step) => stopReached(submissionRecordAt(step), 'render-requested'))).toEqual(['render-requested', 'completed', 'downloaded']);
    expect(SUBMISSION_STEPS.filter((step) => stopReached(submissionRecordAt(step), 'done'))).toEqual(['downloaded']);
    expect(stopReached(submissionRecordAt('uploaded', { ending: 'failed' }), 'done')).toBe(true);
  });
});
