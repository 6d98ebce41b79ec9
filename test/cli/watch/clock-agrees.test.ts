import { describe, expect, it } from 'vitest';
import { watchedClock, type WatchedJob } from '../../../src/cli/watch/watch-report';
import { toJobSummary, withFrameCounts } from '../../../src/host/jobs/job-summary';
import type { Job } from '../../../src/shared/api/job';
import { framesSeenAfter, renderClockOf } from '../../../src/shared/render';

describe('the time left of watch --json and of the app\'s queue', () => {
  it('agree within a second on the same job and the same progress reads (after a wait in line and a slow first frame)', () => {
    const t0 = Date.parse('2026-01-10T10:00:00Z');
    const job: Job = {
      id: '0b8f6f4e-1a2b-4c3d-8e9f-001122334455',
      status: 'rendering',
      workspaceId: 'w',
      createdAt: new Date(t0 - 60_000).toISOString(),
      updatedAt: new Date(t0).toISOString(),
      timeline: [{ status: 'rendering', at: new Date(t0).toISOString() }],
    } as Job;
    let summary = toJobSummary(job, { now: t0 });
    const watched: WatchedJob = { job, frames: null, framesSeen: null };
    const reads: [number, number][] = [[t0 + 12_000, 1], [t0 + 17_000, 2], [t0 + 22_000, 3]];
    for (const [at, done] of reads) {
      summary = withFrameCounts(summary, { completedFrames: done, totalFrames: 10 }, at);
      watched.framesSeen = framesSeenAfter(watched.framesSeen, watched.frames?.completedFrames ?? 0, done, at);
      watched.frames = { completedFrames: done, totalFrames: 10 };
    }
    const now = t0 + 23_000;
    const app = renderClockOf(summary, now);
    const cli = watchedClock(watched, now)!;
    expect(app.phase).toBe('rendering');
    const appLeft = app.phase === 'rendering' ? app.leftSeconds : null;
    expect(appLeft).toBe(34);
    expect(Math.abs(cli.timeLeftSeconds! - appLeft!)).toBeLessThanOrEqual(1);
  });
});
