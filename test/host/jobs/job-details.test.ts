import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceScene } from '../../../src/blend/pack/trace-scene';
import type { ApiClient } from '../../../src/core/api/api-client';
import type { SubmissionRecord } from '../../../src/core/journal/submission-record';
import { summarizePlan, type PackSummary } from '../../../src/core/packing/pack-summary';
import { JobDetails } from '../../../src/host/jobs/job-details';
import type { JobDownloads } from '../../../src/host/jobs/job-downloads';
import type { ProfileJobs } from '../../../src/host/jobs/profile-jobs';
import type { Job } from '../../../src/shared/api/job';
import { writeTree } from '../../blend/helpers/scene-folder';
import { SyntheticBlend } from '../../blend/helpers/synthetic-blend';

let root: string;
let summary: PackSummary;
let external: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rd-details-'));
  const scene = new SyntheticBlend();
  scene.addImage({ name: 'Stamp', path: '//../shared/stamp.png' });
  scene.addImage({ name: 'Gone', path: '//textures/missing.png' });
  await writeTree(root, { 'proj/shot.blend': scene.build(), 'shared/stamp.png': 'png' });
  summary = summarizePlan(await traceScene(join(root, 'proj', 'shot.blend'), { platform: 'posix' }));
  external = summary.places.find((p) => p.owner === 'Stamp')!.inBundle!.replace(/\/stamp\.png$/, '');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A validated job of the packed scene, with the node's warnings in the bundle's own paths. */
function packedJob(): Job {
  const missing = (path: string) => ({ code: 'missing-dependency', path, message: `Image is missing: ${path} was not uploaded with the scene.` });
  return {
    id: 'job-1',
    status: 'validated',
    analysis: {
      frameStart: 1,
      frameEnd: 1,
      frameStep: 1,
      cameras: ['Camera'],
      warnings: [missing(`//${external}/stamp.png`), missing('//textures/missing.png')],
      dependencies: [],
    },
    requestedConfig: null,
    finalConfig: null,
    previewUrl: null,
  } as unknown as Job;
}

function details(record: SubmissionRecord | null, staged = false): JobDetails {
  const client = { getJob: async () => packedJob() } as unknown as ApiClient;
  const jobs = { put: (job: Job) => ({ id: job.id }) } as unknown as ProfileJobs;
  const downloads = { jobDir: () => join(root, 'out') } as unknown as JobDownloads;
  return new JobDetails({ client, jobs, downloads, submitted: { get: () => record }, isStaged: () => staged });
}

const record = (): SubmissionRecord => ({ file: { path: join(root, 'proj', 'shot.blend'), name: 'shot.blend' }, packing: summary }) as unknown as SubmissionRecord;

describe('JobDetails', () => {
  it('shows the farm\'s warnings of a packed scene by the artist\'s paths, without the files that travelled', async () => {
    const detail = await details(record()).detail('job-1');
    const warnings = detail.analysis!.warnings;
    expect(warnings.map((w) => w.path)).toEqual([join(root, 'proj', 'textures', 'missing.png')]);
    for (const w of warnings) expect(`${w.path} ${w.message}`).not.toMatch(/_external|_libraries/);
  });

  it('names files as the scene stores them for a scene that reached the app as bytes only', async () => {
    const detail = await details(record(), true).detail('job-1');
    expect(detail.analysis!.warnings.map((w) => w.path)).toEqual(['//textures/missing.png']);
  });

  it('leaves the analysis of a job this app did not submit as the farm sent it', async () => {
    const detail = await details(null).detail('job-1');
    expect(detail.analysis!.warnings.map((w) => w.path)).toEqual([`//${external}/stamp.png`, '//textures/missing.png']);
  });
});
