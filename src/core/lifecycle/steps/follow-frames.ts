import { FrameFollower, type FramesSource, LiveFrameFollow } from '../../download';
import { errorReason } from '../../errors';
import { fixDownloadDir } from './download-step';
import type { StepContext } from '../step-context';

/**
 * While the job of a submission that wants its outputs renders, its frames come into the output
 * folder as the node finishes them (a Renderdrop node's frames route; other servers download at the
 * end): null when there is nothing to follow. The folder is fixed in the record first, so the download
 * at the end, after a restart too, completes the same folder. A pass that fails is said once.
 */
export async function followFrames(ctx: StepContext, jobId: string): Promise<LiveFrameFollow | null> {
  const client = ctx.client;
  if (!ctx.record().download.wanted || !client.getJobFrames) return null;
  const dir = await fixDownloadDir(ctx);
  const follower = new FrameFollower({
    source: client as FramesSource,
    jobId,
    dir,
    clock: ctx.clock,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onFrames: (progress) => ctx.emit('framesOnDisk', progress),
  });
  let told = false;
  return new LiveFrameFollow(follower, {
    onError: (error) => {
      if (told) return;
      told = true;
      ctx.emit('notice', { message: `Frames could not be copied to ${dir} while the job renders (${errorReason(error)}); they are downloaded when it ends.` });
    },
  });
}
