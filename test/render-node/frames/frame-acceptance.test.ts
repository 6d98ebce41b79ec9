import { describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { openDatabase } from '../../../src/render-node/store/db';
import { JobsRepo } from '../../../src/render-node/store/jobs-repo';
import { acceptFrame, acceptWrittenFrames, removeIncompleteFrames, verifyFrame } from '../../../src/render-node/frames/frame-acceptance';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A real 8-bit grey PNG of noise, `size` x `size`. */
function png(size: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  const rows = Buffer.alloc((size + 1) * size);
  for (let i = 0; i < rows.length; i++) rows[i] = i % (size + 1) === 0 ? 0 : (i * 2654435761) >>> 24;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

async function setup() {
  const dir = await mkdtemp(join(tmpdir(), 'rd-frames-'));
  const db = openDatabase(join(dir, 'data'));
  const jobs = new JobsRepo(db);
  const job = jobs.create({ userId: 'u', uploadSlug: 's', sceneFile: { fileName: 'a.blend', fileType: 'blend', size: 1, slug: 's', scenePath: null } });
  const frames = join(dir, 'frames');
  await mkdir(frames);
  return { jobs, jobId: job.id, frames, close: () => db.close() };
}

describe('frame acceptance', () => {
  it('records a whole frame', async () => {
    const s = await setup();
    const path = join(s.frames, 'shot_0001.png');
    await writeFile(path, png(64));
    expect(await acceptFrame(s.jobs, { jobId: s.jobId, frame: 1, path, seconds: 1.5 })).toEqual({ accepted: true, completedFrames: 1 });
    expect(s.jobs.frames(s.jobId)).toEqual([{ frame: 1, filePath: path, seconds: 1.5, worker: null }]);
    s.close();
  });

  it('refuses a frame cut short, removes its file and does not count it', async () => {
    const s = await setup();
    const path = join(s.frames, 'shot_0002.png');
    const whole = png(64);
    await writeFile(path, whole.subarray(0, whole.length - 20));
    const result = await acceptFrame(s.jobs, { jobId: s.jobId, frame: 2, path, seconds: 1 });
    expect(result.accepted).toBe(false);
    expect(!result.accepted && result.reason).toMatch(/runs past the end of the file/);
    expect(existsSync(path)).toBe(false);
    expect(s.jobs.frames(s.jobId)).toEqual([]);
    expect(s.jobs.get(s.jobId)!.completedFrames).toBe(0);
    s.close();
  });

  it('before a resume, removes incomplete frame files and the partial folder and keeps whole ones', async () => {
    const s = await setup();
    await writeFile(join(s.frames, 'shot_0001.png'), png(32));
    await writeFile(join(s.frames, 'shot_0002.png'), png(32).subarray(0, 40));
    await writeFile(join(s.frames, 'shot_0003.png'), Buffer.alloc(0));
    await mkdir(join(s.frames, '.partial'));
    await writeFile(join(s.frames, '.partial', 'shot_0004.png'), png(32).subarray(0, 60));
    const removed = await removeIncompleteFrames(s.frames);
    expect(removed.map((p) => p.split(/[\\/]/).pop()).sort()).toEqual(['shot_0002.png', 'shot_0003.png']);
    expect(await readdir(s.frames)).toEqual(['shot_0001.png']);
    s.close();
  });

  it('verifies files of formats it cannot read as long as they are not empty', async () => {
    const s = await setup();
    const path = join(s.frames, 'notes.xyz');
    await writeFile(path, 'some data');
    expect(await verifyFrame(path)).toEqual({ ok: true });
    expect(await verifyFrame(join(s.frames, 'missing.png'))).toEqual({ ok: false, reason: 'the file is missing' });
    s.close();
  });
});

describe('acceptWrittenFrames (after a cancel)', () => {
  it('counts whole frames the node had not heard of, removes cut ones, and leaves counted ones alone', async () => {
    const { jobs, jobId, frames, close } = await setup();
    try {
      const whole = png(32);
      await writeFile(join(frames, 'shot_0001.png'), whole);
      jobs.recordFrame(jobId, 1, join(frames, 'shot_0001.png'), 1);
      await writeFile(join(frames, 'shot_0002.png'), whole);
      await writeFile(join(frames, 'shot_0003.png'), whole.subarray(0, whole.length - 20));
      const counted = await acceptWrittenFrames(jobs, jobId, frames, [2, 3, 4], (f) => [`shot_${String(f).padStart(4, '0')}.png`]);
      expect(counted).toBe(1);
      expect(jobs.frames(jobId).map((f) => f.frame).sort()).toEqual([1, 2]);
      expect((await readdir(frames)).sort()).toEqual(['shot_0001.png', 'shot_0002.png']);
    } finally {
      close();
    }
  });
});
