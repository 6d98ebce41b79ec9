import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/core/api/api-client';
import { NotFoundError } from '../../../src/core/errors';
import type { JobDownloads } from '../../../src/host/jobs/job-downloads';
import { JobFrameStrip } from '../../../src/host/jobs/job-frame-strip';
import type { Job, JobFrames } from '../../../src/shared/api';

let root: string;
let files: Server;
/** The address of the in-process server that answers every path with its own name as a PNG body. */
let base = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rd-frame-strip-'));
  files = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(req.url ?? '');
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(async () => {
  files.close();
  await rm(root, { recursive: true, force: true });
});

const bodyOf = (dataUrl: string) => Buffer.from(dataUrl.split(',')[1]!, 'base64').toString();

const job = (status: string): Job => ({ id: 'job-1', status, finalConfig: { frameRanges: ['1-4'], outputFormat: 'PNG' }, requestedConfig: null, analysis: null, previewUrl: null }) as unknown as Job;

/** A server whose job renders: `written` frames so far, with previews of those in `previews`. */
function server(options: { status: string; written: number[]; previews: number[]; nodeFrames: boolean }) {
  const calls: string[] = [];
  const frames = (): JobFrames => ({
    jobId: 'job-1',
    totalFrames: 4,
    frames: options.written.map((frame) => ({
      frame,
      fileName: `shot_000${frame}.png`,
      url: `${base}/frames/shot_000${frame}.png`,
      previewUrl: options.previews.includes(frame) ? `${base}/previews/shot_000${frame}.png` : null,
    })),
  });
  const client = {
    getJob: async () => job(options.status),
    getJobFrames: async () => {
      calls.push('frames');
      if (!options.nodeFrames) throw new NotFoundError('no such route');
      return frames();
    },
    getDownloads: async () => {
      calls.push('downloads');
      return { frames: [], compositeNodes: [], frameOutputs: [], compositeNodeOutputs: [], transforms: {} };
    },
  } as unknown as ApiClient;
  const downloads = { jobDir: () => join(root, 'none') } as unknown as JobDownloads;
  return { strip: new JobFrameStrip({ client, downloads }), calls };
}

describe('the frame strip of a job that is rendering', () => {
  it('lists the frames a Renderdrop node has written so far as done, with their previews, the rest pending', async () => {
    const { strip } = server({ status: 'rendering', written: [1, 2], previews: [1, 2], nodeFrames: true });
    const view = await strip.frames('job-1');
    expect(view.frames.map((f) => [f.frame, f.state, f.fileName, f.hasPreview])).toEqual([
      [1, 'done', 'shot_0001.png', true],
      [2, 'done', 'shot_0002.png', true],
      [3, 'pending', null, false],
      [4, 'pending', null, false],
    ]);
  });

  it('asks a farm without the node frames list for its download list only once the job has ended', async () => {
    const { strip, calls } = server({ status: 'rendering', written: [], previews: [], nodeFrames: false });
    await strip.frames('job-1');
    await strip.frames('job-1');
    expect(calls).toEqual(['frames', 'downloads']);
  });
});

describe('the pictures of a frame still on the server', () => {
  it('gives a tile from the small preview when there is one, the viewer the frame itself', async () => {
    const { strip } = server({ status: 'rendering', written: [1, 2], previews: [1], nodeFrames: true });
    await strip.frames('job-1');
    const tile = await strip.image('job-1', 1, true);
    expect(tile.ok && [bodyOf(tile.dataUrl), tile.preview]).toEqual(['/previews/shot_0001.png', true]);
    const full = await strip.image('job-1', 1);
    expect(full.ok && [bodyOf(full.dataUrl), full.preview]).toEqual(['/frames/shot_0001.png', false]);
    const noPreview = await strip.image('job-1', 2, true);
    expect(noPreview.ok && [bodyOf(noPreview.dataUrl), noPreview.preview]).toEqual(['/frames/shot_0002.png', false]);
  });
});
