import { describe, expect, it } from 'vitest';
import { pickRenders, shouldYield } from '../../../src/render-node/jobs/fair-queue';

const job = (id: string, userId: string) => ({ id, userId });

describe('pickRenders', () => {
  it('fills free slots in queue order when one key is waiting', () => {
    const waiting = [job('a1', 'A'), job('a2', 'A'), job('a3', 'A')];
    expect(pickRenders(waiting, [], 2, new Map()).map((j) => j.id)).toEqual(['a1', 'a2']);
  });

  it("gives a slot to the key with nothing running before another render of a busy key, even if that one queued first", () => {
    const waiting = [job('a2', 'A'), job('a3', 'A'), job('b1', 'B')];
    expect(pickRenders(waiting, [job('a1', 'A')], 2, new Map()).map((j) => j.id)).toEqual(['b1']);
  });

  it('alternates between keys with the same number running, the one served longest ago first', () => {
    const waiting = [job('a1', 'A'), job('a2', 'A'), job('b1', 'B'), job('b2', 'B'), job('c1', 'C')];
    const lastStarted = new Map([
      ['A', 300],
      ['B', 100],
      ['C', 200],
    ]);
    expect(pickRenders(waiting, [], 4, lastStarted).map((j) => j.id)).toEqual(['b1', 'c1', 'a1', 'b2']);
  });

  it('starts nothing when every slot is taken', () => {
    expect(pickRenders([job('b1', 'B')], [job('a1', 'A')], 1, new Map())).toEqual([]);
  });
});

describe('shouldYield', () => {
  const running = { id: 'a1', userId: 'A', startedAt: 1_000 };

  it("gives way once its turn is over when another key has a render waiting and none running", () => {
    expect(shouldYield(running, [job('b1', 'B')], [running], 1_000 + 60_000, 60_000)).toBe(true);
  });

  it('keeps the slot during its turn', () => {
    expect(shouldYield(running, [job('b1', 'B')], [running], 1_000 + 59_999, 60_000)).toBe(false);
  });

  it('keeps the slot when only its own key waits', () => {
    expect(shouldYield(running, [job('a2', 'A')], [running], 1_000_000, 60_000)).toBe(false);
  });

  it('keeps the slot when the waiting key already has as many renders running', () => {
    const other = { id: 'b1', userId: 'B', startedAt: 0 };
    expect(shouldYield(running, [job('b2', 'B')], [running, other], 1_000_000, 60_000)).toBe(false);
  });
});
