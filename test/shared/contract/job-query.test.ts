import { describe, expect, it } from 'vitest';
import type { JobStatus } from '../../../src/shared/api/job';
import { countJobs, queryJobs } from '../../../src/shared/contract/job-query';
import type { JobSummary } from '../../../src/shared/contract/job-views';
import { jobSummary } from '../../fixtures/job-summary';

function job(id: string, status: JobStatus, fileName: string, createdAt: string): JobSummary {
  return jobSummary({ id, status, fileName, createdAt });
}

const jobs = [
  job('a1', 'rendering', 'Forest.blend', '2026-01-01T00:00:01Z'),
  job('b2', 'completed', 'forêt-night.blend', '2026-01-01T00:00:03Z'),
  job('c3', 'failed', 'city.zip', '2026-01-01T00:00:02Z'),
  job('d4', 'validated', 'city-day.blend', '2026-01-01T00:00:04Z'),
  job('e5', 'canceled', 'ocean.blend', '2026-01-01T00:00:00Z'),
];

describe('queryJobs', () => {
  it('counts every filter and lists newest first', () => {
    const { jobs: shown, counts } = queryJobs(jobs, {});
    expect(shown.map((j) => j.id)).toEqual(['d4', 'b2', 'c3', 'a1', 'e5']);
    expect(counts).toEqual({ all: 5, active: 1, review: 1, completed: 1, failed: 1, canceled: 1 });
  });

  it('searches file names ignoring case and accents, and counts within the search', () => {
    const { jobs: shown, counts } = queryJobs(jobs, { search: 'FORET' });
    expect(shown.map((j) => j.id)).toEqual(['b2']);
    expect(counts.all).toBe(1);
    const city = queryJobs(jobs, { search: 'city', filter: 'failed' });
    expect(city.jobs.map((j) => j.id)).toEqual(['c3']);
    expect(city.counts).toMatchObject({ all: 2, failed: 1, review: 1 });
  });

  it('handles 10,000 jobs in one pass', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => job(`id-${i}`, i % 3 === 0 ? 'rendering' : 'completed', `scene-${i}.blend`, new Date(1e12 + i * 1000).toISOString()));
    const { jobs: shown } = queryJobs(many, { filter: 'active', search: 'scene-9' });
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every((j) => j.status === 'rendering' && j.fileName.startsWith('scene-9'))).toBe(true);
    expect(countJobs(many)).toMatchObject({ all: 10_000, active: 3_334, completed: 6_666 });
  });
});
