import type { Downloads, Job } from '../../shared/api';
import type { CallOptions } from '../api';
import { InvalidStateError } from '../errors';
import { checkFolder, type FolderCheck } from './check-folder';
import { expectedFrames } from './expected-frames';
import { listedFrames } from './frame-names';

/** The part of the API client a folder check needs. */
export interface VerifySource {
  getJob(jobId: string, options?: CallOptions): Promise<Job>;
  getDownloads(jobId: string, options?: CallOptions): Promise<Downloads>;
}

/** A job's download folder checked against the frames the job renders. */
export interface JobFolderCheck extends FolderCheck {
  job: Job;
  /** The frame files the server lists, by frame. */
  listed: Map<number, string>;
  /** Frames the folder needs that the server still offers: downloading them again costs no render. */
  downloadable: number[];
}

/**
 * Checks `folder` against the frames a job renders (its final frame ranges, else the requested ones,
 * else the scene's range): which frames are there and whole, which are missing, which are empty or do
 * not decode. `job` is the job as the server just gave it.
 */
export async function verifyJobFolder(client: Pick<VerifySource, 'getDownloads'>, job: Job, folder: string, options: CallOptions = {}): Promise<JobFolderCheck> {
  const frames = expectedFrames(job);
  if (frames === null) {
    throw new InvalidStateError(`The server does not say which frames job ${job.id} renders (it is ${job.status}), so its folder cannot be checked yet.`, { code: 'frames-unknown' });
  }
  const listed = listedFrames(await client.getDownloads(job.id, options));
  const check = await checkFolder({ folder, frames, listed });
  return { ...check, job, listed, downloadable: framesToRender(check).filter((f) => listed.has(f)) };
}

/** The frames a checked folder still needs: missing ones and those whose file cannot be used, in order. */
export function framesToRender(check: Pick<FolderCheck, 'missing' | 'broken'>): number[] {
  return [...check.missing, ...check.broken.map((b) => b.frame)].sort((a, b) => a - b);
}
