import { describe, expect, it } from 'vitest';
import { Activity, isWorkActive } from '../../../src/main/activity/activity';
import type { AppState } from '../../../src/shared/contract/app-state';
import { job } from '../helpers/jobs';

const state = { connection: { state: 'ok' }, settings: { autoDownload: false, downloadDir: '/renders' } } as unknown as AppState;

describe('Activity', () => {
  it('follows jobs, uploads, downloads, the connection and settings from host events', () => {
    const activity = new Activity();
    activity.apply({ name: 'app.changed', payload: state });
    activity.apply({ name: 'job.updated', payload: job({ id: 'b', createdAt: '2026-01-02T00:00:00Z' }) });
    activity.apply({ name: 'job.updated', payload: job({ id: 'a', status: 'validating' }) });
    activity.apply({ name: 'job.updated', payload: job({ id: 'c', status: 'validated' }) });
    activity.apply({ name: 'job.updated', payload: job({ id: 'd', status: 'completed', download: { state: 'downloading', dir: '/r/d', filesDone: 1, filesTotal: 3, bytes: 10, error: null } }) });
    activity.apply({ name: 'submission.updated', payload: { id: 's1', phase: 'uploading' } as never });
    activity.apply({ name: 'submission.updated', payload: { id: 's2', phase: 'uploading' } as never });
    activity.apply({ name: 'submission.updated', payload: { id: 's2', phase: 'validating' } as never });
    activity.apply({ name: 'connection.changed', payload: { state: 'key-rejected', message: 'rejected' } });
    const snapshot = activity.snapshot();
    expect(snapshot.activeJobs.map((j) => j.id)).toEqual(['a', 'b']);
    expect(snapshot).toMatchObject({ uploads: 1, downloads: 1, autoDownload: false, downloadDir: '/renders', connection: { state: 'key-rejected' } });
    expect(isWorkActive(snapshot)).toBe(true);
    activity.apply({ name: 'submission.removed', payload: { id: 's1' } });
    activity.apply({ name: 'jobs.reset', payload: { profileId: 'other' } });
    expect(isWorkActive(activity.snapshot())).toBe(false);
  });

  it('counts failures seen happening (not failed jobs loaded from history) until the window is looked at', () => {
    const activity = new Activity();
    activity.seed([job({ id: 'old', status: 'failed' }), job({ id: 'live' })]);
    activity.apply({ name: 'job.updated', payload: job({ id: 'old', status: 'failed', updatedAt: 'later' }) });
    expect(activity.snapshot().unseenFailures).toBe(0);
    activity.apply({ name: 'job.updated', payload: job({ id: 'live', status: 'failed', failure: 'Out of memory' }) });
    activity.apply({ name: 'job.updated', payload: job({ id: 'live', status: 'failed', failure: 'Out of memory', updatedAt: 'later' }) });
    expect(activity.snapshot().unseenFailures).toBe(1);
    expect(activity.job('live')?.failure).toBe('Out of memory');
    activity.markFailuresSeen();
    expect(activity.snapshot().unseenFailures).toBe(0);
  });

  it('seeding never overwrites a newer summary', () => {
    const activity = new Activity();
    activity.apply({ name: 'job.updated', payload: job({ id: 'a', completedFrames: 5, totalFrames: 10 }) });
    activity.seed([job({ id: 'a', completedFrames: 1, totalFrames: 10 })]);
    expect(activity.job('a')?.completedFrames).toBe(5);
  });
});
