import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../../src/render-node/store/db';
import { JobsRepo } from '../../../src/render-node/store/jobs-repo';
import { ChunksRepo } from '../../../src/render-node/distributed/chunks-repo';
import { putJobInStatus } from '../../helpers/job-status';

let dir: string;
let db: Db;
let jobs: JobsRepo;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-requeue-records-'));
  db = openDatabase(dir);
  jobs = new JobsRepo(db);
});
afterAll(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

function completedJob(frames: number[]): string {
  const slug = `u-${Math.random().toString(36).slice(2)}`;
  const { id } = jobs.create({ userId: 'test', uploadSlug: slug, sceneFile: { fileName: 'a.blend', fileType: 'blend', size: 1, slug, scenePath: 'a.blend' } });
  for (const f of frames) jobs.recordFrame(id, f, `/frames/a_${f}.png`, 1);
  putJobInStatus({ db, jobs }, id, 'completed', { totalFrames: frames.length, completedAt: new Date().toISOString() });
  return id;
}

describe('the records of a requeue', () => {
  it('forgets the frames and puts the job back in the render queue in one step, with the requeue in its history', () => {
    const id = completedJob([1, 2, 3, 4]);
    const moved = jobs.requeue(id, ['completed', 'failed', 'canceled'], 'booting', [2, 4], { completedAt: null }, 'requeued frames 2, 4');
    expect(moved).toMatchObject({ status: 'booting', completedFrames: 2, totalFrames: 4, completedAt: null });
    expect(jobs.frames(id).map((f) => f.frame)).toEqual([1, 3]);
    expect(jobs.events(id).at(-1)).toMatchObject({ status: 'booting', detail: 'requeued frames 2, 4' });
  });

  it('lists a job\'s frames in frame order, or in the order they were written, a requeued frame last', () => {
    const id = completedJob([1, 9, 5, 3, 7]);
    expect(jobs.frames(id).map((f) => f.frame)).toEqual([1, 3, 5, 7, 9]);
    expect(jobs.frames(id, 'written').map((f) => f.frame)).toEqual([1, 9, 5, 3, 7]);
    jobs.requeue(id, ['completed'], 'booting', [9], {}, 'requeued frame 9');
    jobs.recordFrame(id, 9, '/frames/a_9.png', 1);
    expect(jobs.frames(id, 'written').map((f) => f.frame)).toEqual([1, 5, 3, 7, 9]);
  });

  it('changes nothing when the job is no longer where the requeue found it', () => {
    const id = completedJob([1, 2]);
    putJobInStatus({ db, jobs }, id, 'booting');
    expect(jobs.requeue(id, ['completed'], 'booting', [1], {}, 'requeued frame 1')).toBeNull();
    expect(jobs.frames(id).map((f) => f.frame)).toEqual([1, 2]);
  });

  it('splits the requeued frames into new chunks after the others, leaving the rest of each old chunk', () => {
    const id = completedJob([1, 2, 3, 4, 5, 6]);
    const chunks = new ChunksRepo(db);
    chunks.ensure(id, [1, 2, 3, 4, 5, 6], 2);
    chunks.nextGeneration(id, 1);
    chunks.nextGeneration(id, 1);
    const split = chunks.requeue(id, [4, 3, 6], 2);
    expect(split).toEqual([
      { index: 0, frames: [1, 2], generation: 0 },
      { index: 2, frames: [5], generation: 0 },
      { index: 3, frames: [3, 4], generation: 0 },
      { index: 4, frames: [6], generation: 0 },
    ]);
  });
});
