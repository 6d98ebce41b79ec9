import { randomBytes } from 'node:crypto';
import { readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Downloads, JobFrames } from '../../../src/shared/api';
import type { Job } from '../../../src/shared/api/job';
import { downloadJobOutputs } from '../../../src/core/download/download-job';
import { FrameFollower, type FramesOnDisk } from '../../../src/core/download/frames-on-disk';
import { LiveFrameFollow } from '../../../src/core/download/live-frame-follow';
import { NotFoundError } from '../../../src/core/errors';
import { FakeTime } from '../../helpers/fake-time';
import { HostileServer, serveFile } from '../../helpers/hostile-server';
import { tempDir } from '../../helpers/scene-files';

const JOB_ID = '0b8f6f4e-1a2b-4c3d-8e9f-001122334455';
const name = (frame: number) => `frame_${String(frame).padStart(4, '0')}.png`;

/** The node's side: each rendered frame's bytes and the time its file was written. */
interface NodeFrame {
  content: Buffer;
  modifiedAt: string;
}

let server: HostileServer;
let dir: string;
let time: FakeTime;
let rendered: Map<number, NodeFrame>;
let versioned: boolean;
let framesCalls: number;

function frameList(): JobFrames {
  framesCalls++;
  return {
    jobId: JOB_ID,
    totalFrames: 6,
    frames: [...rendered].map(([frame, f]) => ({
      frame,
      fileName: name(frame),
      url: `${server.url}/frames/${name(frame)}`,
      previewUrl: null,
      ...(versioned ? { size: f.content.length, modifiedAt: f.modifiedAt } : {}),
    })),
  };
}

const source = { getJobFrames: async () => frameList() };

function render(frame: number, content = randomBytes(20_000 + frame), at = Date.parse('2026-11-29T03:00:00Z') + frame * 1000): Buffer {
  rendered.set(frame, { content, modifiedAt: new Date(at).toISOString() });
  return content;
}

function follower(onFrames?: (p: FramesOnDisk) => void): FrameFollower {
  return new FrameFollower({ source, jobId: JOB_ID, dir, clock: time, sleep: time.sleep, ...(onFrames ? { onFrames } : {}) });
}

const frameGets = () => server.requestsTo('GET', /^\/frames\//).length;

beforeEach(async () => {
  server = await HostileServer.start();
  dir = await tempDir();
  time = new FakeTime();
  rendered = new Map();
  versioned = true;
  framesCalls = 0;
  server.route('GET', /^\/frames\//, (req, res) => {
    const frame = Number(/(\d+)\.png$/.exec(req.url!)![1]);
    return serveFile(rendered.get(frame)!.content, { etag: `"${rendered.get(frame)!.modifiedAt}"` })(req, res);
  });
});
afterEach(() => server.close());

describe('FrameFollower', () => {
  it('brings each listed frame into the folder once, with the node file time, and counts the frames on disk', async () => {
    const first = render(1);
    render(2);
    const seen: FramesOnDisk[] = [];
    const follow = follower((p) => seen.push(p));
    expect(await follow.pass()).toEqual({ jobId: JOB_ID, onDisk: 2, totalFrames: 6 });
    expect((await readFile(join(dir, name(1)))).equals(first)).toBe(true);
    expect(Math.round((await stat(join(dir, name(1)))).mtimeMs)).toBe(Date.parse(rendered.get(1)!.modifiedAt));
    expect(seen.at(-1)).toEqual({ jobId: JOB_ID, onDisk: 2, totalFrames: 6 });
    render(3);
    expect(await follow.pass()).toMatchObject({ onDisk: 3 });
    expect(frameGets()).toBe(3);
    expect(framesCalls).toBe(2);
    expect((await readdir(dir)).sort()).toEqual([name(1), name(2), name(3)]);
  });

  it('after a restart, a new follower takes the frames already on disk as they are (the folder records their version)', async () => {
    render(1);
    render(2);
    await follower().pass();
    const before = frameGets();
    render(3);
    expect(await follower().pass()).toMatchObject({ onDisk: 3 });
    expect(frameGets() - before).toBe(1);
  });

  it('fetches again a frame rendered again, even when its new file has the same size, and never keeps the old one', async () => {
    render(1);
    render(2);
    const follow = follower();
    await follow.pass();
    const again = render(2, randomBytes(rendered.get(2)!.content.length), Date.parse('2026-11-29T04:00:00Z'));
    await follow.pass();
    expect((await readFile(join(dir, name(2)))).equals(again)).toBe(true);
    expect(frameGets()).toBe(3);
    expect((await readdir(dir)).filter((f) => f.includes('.part'))).toEqual([]);
  });

  it('takes a frame as current on a file system that keeps whole seconds, and as older once the node wrote it again later', async () => {
    render(1, randomBytes(20_000), Date.parse('2026-11-29T03:00:00.700Z'));
    await follower().pass();
    await utimes(join(dir, name(1)), new Date(), new Date(Date.parse('2026-11-29T03:00:00Z')));
    await follower().pass();
    expect(frameGets()).toBe(1);
    const again = render(1, randomBytes(20_000), Date.parse('2026-11-29T03:00:05.300Z'));
    await follower().pass();
    expect(frameGets()).toBe(2);
    expect((await readFile(join(dir, name(1)))).equals(again)).toBe(true);
  });

  it('resumes a frame cut mid-way from its .part file', async () => {
    const content = render(1, randomBytes(200_000));
    await writeFile(join(dir, `${name(1)}.part`), content.subarray(0, 80_000));
    await writeFile(join(dir, `${name(1)}.part.etag`), `"${rendered.get(1)!.modifiedAt}"`);
    await follower().pass();
    expect((await readFile(join(dir, name(1)))).equals(content)).toBe(true);
    expect(server.requestsTo('GET', /^\/frames\//)[0]!.headers.range).toBe('bytes=80000-');
  });

  it('with a node that gives no size or time: keeps frames on disk, fetches again a frame that left the list and came back', async () => {
    versioned = false;
    render(1);
    render(2);
    const follow = follower();
    await follow.pass();
    expect(await follow.pass()).toMatchObject({ onDisk: 2 });
    expect(frameGets()).toBe(2);
    rendered.delete(2);
    await follow.pass();
    const again = render(2, randomBytes(rendered.get(1)!.content.length));
    await follow.pass();
    expect((await readFile(join(dir, name(2)))).equals(again)).toBe(true);
    expect(frameGets()).toBe(3);
  });

  it('a server without the frames route (404) makes it unsupported: passes do nothing more', async () => {
    let calls = 0;
    const missing = new FrameFollower({
      source: {
        getJobFrames: async () => {
          calls++;
          throw new NotFoundError('Job was not found on the server (404).', { status: 404 });
        },
      },
      jobId: JOB_ID,
      dir,
    });
    expect(await missing.pass()).toBeNull();
    expect(missing.supported).toBe(false);
    expect(await missing.pass()).toBeNull();
    const live = new LiveFrameFollow(missing);
    live.poke();
    await live.settle();
    expect(calls).toBe(1);
  });
});

describe('LiveFrameFollow', () => {
  it('runs one pass at a time: pokes during a pass make one more pass after it, not one each', async () => {
    let release: () => void = () => undefined;
    let calls = 0;
    const slow = new FrameFollower({
      source: {
        getJobFrames: async () => {
          calls++;
          if (calls === 1) await new Promise<void>((resolve) => (release = resolve));
          return frameList();
        },
      },
      jobId: JOB_ID,
      dir,
    });
    render(1);
    const live = new LiveFrameFollow(slow);
    live.poke();
    live.poke();
    live.poke();
    live.poke();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(1);
    release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await live.settle();
    expect(calls).toBe(2);
    live.poke();
    expect(calls).toBe(2);
  });

  it('reports a failed pass and goes on with the next poke', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const flaky = new FrameFollower({
      source: {
        getJobFrames: async () => {
          if (++calls === 1) throw new Error('connection reset');
          return frameList();
        },
      },
      jobId: JOB_ID,
      dir,
    });
    render(1);
    const live = new LiveFrameFollow(flaky, { onError: (error) => errors.push(error) });
    live.poke();
    await new Promise((resolve) => setTimeout(resolve, 20));
    live.poke();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await live.settle();
    expect(errors).toHaveLength(1);
    expect((await readdir(dir)).sort()).toEqual([name(1)]);
  });
});

describe('downloadJobOutputs with a frames route', () => {
  function downloads(): Downloads {
    const frameOutputs = [...rendered.keys()].map((frame) => ({ url: `${server.url}/frames/${name(frame)}`, fileName: name(frame), relativePath: name(frame), view: '', legacy: false, compositeNodeName: '' }));
    return {
      frames: frameOutputs.map((o) => o.url),
      compositeNodes: [],
      frameOutputs,
      compositeNodeOutputs: [{ url: `${server.url}/composite/mask.png`, fileName: 'mask.png', relativePath: 'mask.png', view: '', legacy: false, compositeNodeName: 'Mask' }],
      transforms: {},
    };
  }
  const client = {
    getDownloads: async () => downloads(),
    getJob: async () => ({ id: JOB_ID, status: 'completed' }) as Job,
    getJobFrames: source.getJobFrames,
  };

  it('completes the folder: frames already there in their current version are kept without a request, one rendered again is fetched anew', async () => {
    const mask = randomBytes(3000);
    server.route('GET', '/composite/mask.png', serveFile(mask));
    for (let frame = 1; frame <= 6; frame++) render(frame);
    rendered.delete(5);
    rendered.delete(6);
    await follower().pass();
    render(5);
    render(6);
    const again = render(2, randomBytes(rendered.get(2)!.content.length), Date.parse('2026-11-29T04:00:00Z'));
    const before = frameGets();
    const result = await downloadJobOutputs({ client, jobId: JOB_ID, dir, clock: time, sleep: time.sleep });
    expect(frameGets() - before).toBe(3);
    expect(server.requestsTo('GET', /^\/frames\/frame_000[134]/).filter((r) => r.headers.range === 'bytes=0-0')).toEqual([]);
    expect((await readFile(join(dir, name(2)))).equals(again)).toBe(true);
    expect((await readFile(join(dir, 'Mask', 'mask.png'))).equals(mask)).toBe(true);
    expect(result.files.filter((f) => f.skipped).map((f) => f.relativePath).sort()).toEqual([name(1), name(3), name(4)]);
    for (const [frame, f] of rendered) expect((await readFile(join(dir, name(frame)))).equals(f.content)).toBe(true);
  });

  it('downloads as before when the server has no frames route', async () => {
    for (let frame = 1; frame <= 3; frame++) render(frame);
    server.route('GET', '/composite/mask.png', serveFile(randomBytes(100)));
    const without = { ...client, getJobFrames: async () => Promise.reject(new NotFoundError('Job was not found on the server (404).', { status: 404 })) };
    const result = await downloadJobOutputs({ client: without, jobId: JOB_ID, dir, clock: time, sleep: time.sleep });
    expect(result.files).toHaveLength(4);
    for (const [frame, f] of rendered) expect((await readFile(join(dir, name(frame)))).equals(f.content)).toBe(true);
  });
});
