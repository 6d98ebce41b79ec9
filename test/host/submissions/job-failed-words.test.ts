import { describe, expect, it } from 'vitest';
import { jobFailedWords } from '../../../src/host/submissions/job-failed-words';
import { toSubmissionView } from '../../../src/host/submissions/submission-view';

describe('a failed job in the artist\'s words', () => {
  it('drops the job\'s id and the farm\'s code, keeping what happened', () => {
    const said = 'Job 0f3c2a8e-1b2c-4d5e-8f90-123456789abc failed: SceneUnreadable (scene): Blender could not read shot.blend: it may be damaged.';
    expect(jobFailedWords(said)).toBe('Blender could not read shot.blend: it may be damaged.');
    expect(jobFailedWords('Job 0f3c2a8e failed: RenderFailed (render).')).toBe('The farm could not use the scene and gave no reason.');
    expect(jobFailedWords('The upload was refused (413).')).toBe('The upload was refused (413).');
  });

  it('is what a stopped submission shows', () => {
    const record = {
      id: 's1',
      file: { name: 'shot.blend', size: 1, path: '/tmp/shot.blend' },
      jobId: '0f3c2a8e-1b2c-4d5e-8f90-123456789abc',
      createdAt: '2026-01-01T00:00:00Z',
      ending: 'failed',
      error: { kind: 'job-failed', message: 'Job 0f3c2a8e-1b2c-4d5e-8f90-123456789abc failed: SceneUnreadable (scene): Blender could not read shot.blend.' },
      packing: null,
    };
    const view = toSubmissionView({ record, error: null, running: false, paths: 'disk' } as never);
    expect(view.error?.message).toBe('Blender could not read shot.blend.');
    expect(view.error?.message).not.toMatch(/0f3c2a8e|SceneUnreadable|\(scene\)/);
  });
});
