import type { ApiClient } from '../../core/api';
import { FrameFollower, LiveFrameFollow } from '../../core/download';
import { errorReason } from '../../core/errors';
import { trackerWaiter } from '../../core/lifecycle';
import { type FrameProgress, JobTracker } from '../../core/tracking';
import { isTerminalStatus, type Job, needsReview } from '../../shared/api';
import { formatFrameProgress, formatFramesOnDisk, type LiveDisplay, shortId } from '../output';

/** What following a rendering job needs. */
export interface FollowFramesOptions {
  client: ApiClient;
  job: Job;
  dir: string;
  display: LiveDisplay;
  signal: AbortSignal;
}

/**
 * Follows a rendering job to its end (one progress call per tick), bringing each frame into `dir` as
 * the node finishes it, on one line: `12 of 240 frames on disk`. A farm without the frames route
 * renders on, and everything is downloaded when the job ends. Returns the job once it ended, or once it
 * waits for its render to be started.
 */
export async function followRenderingJob(o: FollowFramesOptions): Promise<Job> {
  const jobId = o.job.id;
  let status = o.job.status;
  let frames: FrameProgress | null = null;
  let onDisk: { onDisk: number; totalFrames: number } | null = null;
  const show = (force = false) => {
    const rendered = frames && frames.totalFrames > 0 ? formatFrameProgress(frames.completedFrames, frames.totalFrames, { bar: false }) : '';
    const disk = onDisk ? formatFramesOnDisk(onDisk.onDisk, onDisk.totalFrames) : follower.supported ? '' : 'frames download when the job ends';
    o.display.update(jobId, [shortId(jobId), status, rendered, disk].filter((part) => part !== '').join('  '), { force });
  };
  const follower = new FrameFollower({
    source: o.client,
    jobId,
    dir: o.dir,
    signal: o.signal,
    onFrames: (progress) => {
      onDisk = progress;
      show();
    },
  });
  let told = false;
  const live = new LiveFrameFollow(follower, {
    onError: (error) => {
      if (told) return;
      told = true;
      o.display.print(`Frames could not be copied to ${o.dir} while the job renders (${errorReason(error)}); they are downloaded when it ends.`);
    },
  });
  const tracker = new JobTracker({ client: o.client });
  show();
  try {
    return await trackerWaiter(tracker)(jobId, (job) => isTerminalStatus(job.status) || needsReview(job.status), {
      signal: o.signal,
      onJob: (job) => {
        const changed = job.status !== status;
        status = job.status;
        show(changed);
      },
      onProgress: (progress) => {
        frames = progress;
        if (progress.completedFrames > 0) live.poke();
        show();
      },
    });
  } finally {
    await live.settle();
    tracker.stop();
  }
}
