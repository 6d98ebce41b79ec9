import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Downloads, JobFrames, OutputItem } from '../../shared/api';
import type { JobRecord } from '../store';
import type { NodeContext } from './context';
import { framesZipName, listFiles } from '../jobs';
import { framePreviews } from '../frames';

/** Jobs whose recorded frames can be downloaded: completed ones, and those that ended early with frames. */
const WITH_FRAMES = new Set(['completed', 'canceled', 'failed']);

const NO_TRANSFORMS = { framesZip: null, compositeNodesZip: null, video: null, framesZipOutputs: null, compositeNodesZipOutputs: null };
const EMPTY: Downloads = { frames: [], compositeNodes: [], frameOutputs: [], compositeNodeOutputs: [], transforms: NO_TRANSFORMS };

const item = (url: string, fileName: string, relativePath: string, compositeNodeName = ''): OutputItem => ({
  url,
  fileName,
  view: '',
  legacy: false,
  relativePath,
  compositeNodeName,
});

/**
 * The downloads of a job: its frames (those that were checked whole and recorded) under their
 * original names, compositor File Output files, the frames zip, and the video made from the frames
 * (`transforms.video`, an output item) when the scene's output is a video. Empty until the job is completed;
 * a canceled or failed job offers the frames it rendered before it stopped. Each frame output also
 * carries `frame` (its number) and `previewUrl` (a small PNG of it, or null), which clients may ignore.
 */
export async function buildDownloads(job: JobRecord, ctx: NodeContext, sign: (relPath: string) => string): Promise<Downloads> {
  if (!WITH_FRAMES.has(job.status)) return EMPTY;
  const frames = ctx.jobs.frames(job.id);
  if (frames.length === 0) return EMPTY;
  const previews = framePreviews(ctx.storage, job.id, frames);
  const frameOutputs = frames.map((f) => {
    const name = basename(f.filePath);
    const preview = previews.get(f.frame);
    return { ...item(sign(`frames/${name}`), name, name), frame: f.frame, previewUrl: preview ? sign(preview) : null };
  });
  const composite = job.status === 'failed' ? [] : await listFiles(ctx.storage.compositeDir(job.id));
  const compositeNodeOutputs = composite.map((rel) => {
    const [node, ...rest] = rel.split('/');
    return item(sign(`composite/${rel}`), rest[rest.length - 1] ?? rel, rest.join('/'), node);
  });
  const zipName = framesZipName(job);
  const packaged = job.status === 'completed' ? await listFiles(ctx.storage.packageDir(job.id)) : [];
  const framesZip = packaged.includes(zipName) ? sign(`package/${zipName}`) : null;
  const videoName = job.renderPlan?.video?.fileName;
  const video = videoName && packaged.includes(videoName) ? item(sign(`package/${videoName}`), videoName, videoName) : null;
  return {
    frames: frameOutputs.map((o) => o.url),
    compositeNodes: compositeNodeOutputs.map((o) => o.url),
    frameOutputs,
    compositeNodeOutputs,
    transforms: {
      framesZip,
      compositeNodesZip: null,
      video,
      framesZipOutputs: framesZip ? item(framesZip, zipName, zipName) : null,
      compositeNodesZipOutputs: null,
    },
  };
}

/**
 * The frames a job has rendered so far, in any state, with their previews, and the size and time of
 * each frame's file, which change when it is rendered again (`GET /node/jobs/{id}/frames`).
 */
export async function buildJobFrames(job: JobRecord, ctx: NodeContext, sign: (relPath: string) => string): Promise<JobFrames> {
  const frames = ctx.jobs.frames(job.id);
  const previews = framePreviews(ctx.storage, job.id, frames);
  const files = await Promise.all(frames.map((f) => stat(f.filePath).catch(() => null)));
  return {
    jobId: job.id,
    totalFrames: job.totalFrames,
    frames: frames.map((f, i) => {
      const name = basename(f.filePath);
      const preview = previews.get(f.frame);
      const file = files[i];
      return {
        frame: f.frame,
        fileName: name,
        url: sign(`frames/${name}`),
        previewUrl: preview ? sign(preview) : null,
        worker: f.worker,
        ...(file ? { size: file.size, modifiedAt: new Date(Math.floor(file.mtimeMs)).toISOString() } : {}),
      };
    }),
  };
}
