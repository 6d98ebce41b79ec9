import { describe, expect, it } from 'vitest';
import { endedEarlyNote } from '../../src/cli/output/ended-early';
import type { Job } from '../../src/shared/api/job';

const job = (status: Job['status'], progress?: unknown): Job => ({ id: 'j1', status, workspaceId: 'w', createdAt: '', updatedAt: '', ...(progress ? { progress } : {}) });

describe('endedEarlyNote', () => {
  it('says that a job failed or was canceled, how many frames it rendered of how many, and how to render the rest', () => {
    expect(endedEarlyNote(job('failed', { completedFrames: 5, totalFrames: 12 }), 5)).toBe(
      'Job j1 failed after rendering 5 of 12 frames; these are the frames it rendered before it stopped. Render the missing ones with `renderdrop verify j1 --fix`.',
    );
    expect(endedEarlyNote(job('canceled'), 1)).toContain('Job j1 was canceled after rendering 1 frame;');
    expect(endedEarlyNote(job('completed', { completedFrames: 3, totalFrames: 3 }), 3)).toBeNull();
  });
});
