import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JOB_STATUSES, isTerminalStatus, type JobStatus } from '../../../src/shared/api';
import { openDatabase, type Db } from '../../../src/render-node/store/db';
import { JobsRepo } from '../../../src/render-node/store/jobs-repo';
import {
  assertJobTransition,
  canMoveJob,
  JOB_TRANSITIONS,
  JobTransitionError,
  RENDER_STATUSES,
  RUNNER_STATUSES,
  statusesLeadingTo,
} from '../../../src/render-node/store/job-states';
import { putJobInStatus } from '../../helpers/job-status';

let dir: string;
let db: Db;
let jobs: JobsRepo;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-states-'));
  db = openDatabase(dir);
  jobs = new JobsRepo(db);
});

afterAll(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

function jobIn(status: JobStatus): string {
  const slug = `u-${Math.random().toString(36).slice(2)}`;
  const job = jobs.create({ userId: 'test', uploadSlug: slug, sceneFile: { fileName: 'a.blend', fileType: 'blend', size: 1, slug, scenePath: 'a.blend' } });
  if (status !== 'created') putJobInStatus({ db, jobs }, job.id, status);
  return job.id;
}

const allowed = JOB_STATUSES.flatMap((from) => (JOB_TRANSITIONS[from] as readonly JobStatus[]).map((to) => [from, to] as const));
const forbidden = JOB_STATUSES.flatMap((from) => JOB_STATUSES.filter((to) => !canMoveJob(from, to)).map((to) => [from, to] as const));

describe('the job state machine', () => {
  it('has a row for every status of the spec', () => {
    expect(Object.keys(JOB_TRANSITIONS).sort()).toEqual([...JOB_STATUSES].sort());
  });

  it.each(allowed)('lets the repo move a job from %s to %s, recording it in the timeline', (from, to) => {
    const id = jobIn(from);
    const moved = jobs.transition(id, [from], to, {}, 'why');
    expect(moved?.status).toBe(to);
    expect(jobs.events(id).at(-1)).toMatchObject({ status: to, detail: 'why' });
  });

  it.each(forbidden)('refuses to move a job from %s to %s, saying what is allowed', (from, to) => {
    const id = jobIn(from);
    expect(() => jobs.transition(id, [from], to)).toThrow(JobTransitionError);
    expect(() => jobs.transition(id, [from], to)).toThrow(`A job may not move from ${from} to ${to}`);
    expect(jobs.get(id)!.status).toBe(from);
  });

  it('refuses a forbidden pair even when the job is not in that status (a mistake in the caller)', () => {
    const id = jobIn('created');
    expect(() => jobs.transition(id, ['created', 'completed'], 'canceled')).toThrow(/from completed to canceled: it may only go to booting/);
    expect(jobs.get(id)!.status).toBe('created');
  });

  it('returns null, changing nothing, when the job moved on meanwhile', () => {
    const id = jobIn('canceled');
    expect(jobs.transition(id, ['rendering'], 'finalizing')).toBeNull();
    expect(jobs.get(id)!.status).toBe('canceled');
    expect(jobs.transition('no-such-job', ['created'], 'validating')).toBeNull();
  });

  it('lets the runner fail every job it works on, and cancel reach every unfinished job', () => {
    expect(statusesLeadingTo('failed').sort()).toEqual([...RUNNER_STATUSES].sort());
    expect(statusesLeadingTo('canceled')).toEqual(JOB_STATUSES.filter((s) => !isTerminalStatus(s)));
    expect(() => assertJobTransition(RUNNER_STATUSES, 'failed')).not.toThrow();
    expect(() => assertJobTransition(['booting'], 'rendering')).not.toThrow();
    expect(RENDER_STATUSES.every((s) => (RUNNER_STATUSES as readonly JobStatus[]).includes(s))).toBe(true);
  });

  it('makes every status reachable from created, and leads out of an ended job only back into the render queue (a requeue)', () => {
    const reached = new Set<JobStatus>(['created']);
    for (let grew = true; grew; ) {
      const before = reached.size;
      for (const from of [...reached]) for (const to of JOB_TRANSITIONS[from] as readonly JobStatus[]) reached.add(to);
      grew = reached.size > before;
    }
    const neverEntered = JOB_STATUSES.filter((s) => !reached.has(s));
    expect(neverEntered).toEqual(['debugging', 'suspended']);
    for (const status of JOB_STATUSES.filter(isTerminalStatus)) expect(JOB_TRANSITIONS[status]).toEqual(['booting']);
    expect(statusesLeadingTo('booting').sort()).toEqual(['canceled', 'completed', 'failed', 'validated']);
  });
});
