import { describe, expect, it } from 'vitest';
import { checkScheduler, type SchedulerFigures } from '../../bench/lib/checks';

/** Exactly one problem, naming `figure`. */
function refusedFor(problems: string[], figure: RegExp): void {
  expect(problems).toHaveLength(1);
  expect(problems[0]).toMatch(figure);
}

describe('checkScheduler', () => {
  const scenario = { label: '1000 jobs waiting', jobs: 1000, chunksPerJob: 4, chunksQueued: [4000, 4000], taken: 100, empty: 0, picks: 100, picksOfTop: 100, orderBreaks: 0, pickUs: 4, takeUs: 60, perChunkUs: 64 };
  const good = (over: Partial<typeof scenario> = {}, ratio = 1.1): SchedulerFigures => ({ workers: 50, takesPerWorker: 2, runs: 1, scenarios: [{ ...scenario, ...over }], ratio });

  it('accepts figures that add up', () => {
    expect(checkScheduler(good())).toEqual([]);
  });

  it('refuses a queue that did not hold every chunk of every job', () => {
    refusedFor(checkScheduler(good({ chunksQueued: [4000, 3999] })), /chunks waiting in BullMQ before a round is 3999, but jobs x chunks per job is 4000/);
  });

  it('refuses takes that found nothing, or fewer chunks taken than asked', () => {
    const problems = checkScheduler(good({ taken: 99, empty: 1 }));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/chunks taken is 99, but workers x takes per worker x runs is 100/);
    expect(problems[1]).toMatch(/takes that found no chunk is 1/);
  });

  it('refuses a take of a lower priority while a higher one waited, and a choice below the top priority', () => {
    refusedFor(checkScheduler(good({ orderBreaks: 1 })), /lower priority was taken before a higher one is 1/);
    refusedFor(checkScheduler(good({ picksOfTop: 99 })), /choices of a render of the highest waiting priority is 99, but every choice is 100/);
  });

  it('refuses a per-chunk time that is not its parts, and times that are not more than 0', () => {
    expect(checkScheduler(good({ perChunkUs: 70 }))).toHaveLength(1);
    refusedFor(checkScheduler(good({ takeUs: 0, perChunkUs: 4 })), /take per chunk is 0 µs: it must be more than 0/);
    refusedFor(checkScheduler(good({}, 0)), /many jobs \/ one job is 0: it must be more than 0/);
  });
});
