import { describe, expect, it } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { EstimatesRepo, openDatabase } from '../../../src/render-node/store';

describe('renderdrop node stats', () => {
  it('says there is nothing yet on a fresh node', async () => {
    const data = await mkdtemp(join(tmpdir(), 'rd-stats-'));
    const home = await mkdtemp(join(tmpdir(), 'rd-stats-home-'));
    const text = await runCli(['node', 'stats', '--data', data], { env: { HOME: home } });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('No finished job had an estimate yet');
  }, 60_000);

  it('prints how right the estimates given before Start have been, and the same as JSON', async () => {
    const data = await mkdtemp(join(tmpdir(), 'rd-stats-'));
    const home = await mkdtemp(join(tmpdir(), 'rd-stats-home-'));
    const db = openDatabase(data);
    const repo = new EstimatesRepo(db);
    const jobs: [string, number, number][] = [
      ['a', 100, 100],
      ['b', 110, 100],
      ['c', 300, 200],
      ['d', 95, 100],
    ];
    for (const [id, given, took] of jobs) {
      repo.saveGiven(id, { seconds: given, low: given * 0.8, high: given * 1.2 });
      repo.saveTook(id, took, `2026-11-29T03:0${jobs.findIndex((j) => j[0] === id)}:00.000Z`);
    }
    repo.saveTook('no-estimate', 50, '2026-11-29T03:09:00.000Z');
    db.close();

    const text = await runCli(['node', 'stats', '--data', data], { env: { HOME: home } });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('4 finished jobs had an estimate before Start.');
    expect(text.stdout).toContain('Off by 8 % in the middle (median), 50 % at worst; 3 of 4 (75 %) within 20 % of the render time taken.');

    const json = await runCli(['node', 'stats', '--data', data, '--json'], { env: { HOME: home } });
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed).toMatchObject({ count: 4, worstError: 0.5, within20: 0.75 });
    expect(parsed.medianError).toBeCloseTo(0.075, 6);
    expect(parsed.jobs.map((j: any) => j.jobId)).toEqual(['a', 'b', 'c', 'd']);
    expect(parsed.jobs[2]).toMatchObject({ estimate: { seconds: 300, low: 240, high: 360 }, tookSeconds: 200 });
  }, 60_000);
});
