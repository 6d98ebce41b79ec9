import { describe, expect, it } from 'vitest';
import { CommandFailedError, UsageError } from '../../src/cli/cli-errors';
import { resolveJobId } from '../../src/cli/context/resolve-job-id';

const ids = ['1f2e3d4c-0000-4000-8000-000000000001', '1f2e9999-0000-4000-8000-000000000002', 'abcdef01-0000-4000-8000-000000000003'];
const lister = () => {
  const calls: unknown[] = [];
  return {
    calls,
    listJobs: async (query?: unknown) => {
      calls.push(query);
      return { jobs: ids.map((id) => ({ id, status: 'completed' as const, workspaceId: 'w', createdAt: '', updatedAt: '' })), pagination: { page: 1, pageSize: 100, total: 3, totalPages: 1 } };
    },
  };
};

describe('job ids typed by a person', () => {
  it('take a full id as is, without asking the server', async () => {
    const source = lister();
    await expect(resolveJobId(source, ` ${ids[0]} `)).resolves.toBe(ids[0]);
    expect(source.calls).toEqual([]);
  });

  it('complete a unique prefix from the newest jobs', async () => {
    const source = lister();
    await expect(resolveJobId(source, 'abcd')).resolves.toBe(ids[2]);
    await expect(resolveJobId(source, '1f2e3')).resolves.toBe(ids[0]);
    expect(source.calls).toEqual([{ page: 1, pageSize: 100 }, { page: 1, pageSize: 100 }]);
  });

  it('refuse an ambiguous prefix and one no job has, and pass text that is no id to the server', async () => {
    await expect(resolveJobId(lister(), '1f2e')).rejects.toThrow(UsageError);
    await expect(resolveJobId(lister(), '1f2e')).rejects.toThrow(/2 job ids/);
    await expect(resolveJobId(lister(), 'ffff')).rejects.toThrow(CommandFailedError);
    await expect(resolveJobId(lister(), 'ffff')).rejects.toThrow('No job starts with "ffff" among the 100 newest jobs');
    await expect(resolveJobId(lister(), 'job-42')).resolves.toBe('job-42');
    await expect(resolveJobId(lister(), '  ')).rejects.toThrow(UsageError);
  });
});
