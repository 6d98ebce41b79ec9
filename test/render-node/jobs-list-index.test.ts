import { describe, expect, it } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/render-node/store/db';
import { JobsRepo } from '../../src/render-node/store/jobs-repo';

/** The statements `run` prepares, each with SQLite's plan for it. */
async function plansOf(run: (jobs: JobsRepo) => void): Promise<{ sql: string; plan: string[] }[]> {
  const db = openDatabase(await mkdtemp(join(tmpdir(), 'rd-index-')));
  const jobs = new JobsRepo(db);
  const seen: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    seen.push(sql);
    return prepare(sql);
  }) as typeof db.prepare;
  run(jobs);
  db.prepare = prepare;
  const plans = seen.map((sql) => {
    const args = (sql.match(/\?/g) ?? []).map(() => 'completed');
    return { sql, plan: (prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail) };
  });
  db.close();
  return plans;
}

describe('listing jobs by status', () => {
  it('reads the jobs of one status newest first from an index, without sorting them all', async () => {
    const plans = await plansOf((jobs) => jobs.list(3, 20, 'completed'));
    expect(plans.length).toBeGreaterThan(0);
    for (const { sql, plan } of plans) {
      expect(plan.join(' | '), sql).not.toMatch(/TEMP B-TREE/);
      expect(plan.join(' | '), sql).toMatch(/USING (COVERING )?INDEX/);
    }
  });

  it('reads the unfiltered list the same way', async () => {
    const plans = await plansOf((jobs) => jobs.list(3, 20));
    expect(plans.length).toBeGreaterThan(0);
    for (const { sql, plan } of plans) {
      expect(plan.join(' | '), sql).not.toMatch(/TEMP B-TREE/);
      expect(plan.join(' | '), sql).toMatch(/USING (COVERING )?INDEX/);
    }
  });
});
