import { describe, expect, it } from 'vitest';
import { pickRenders, shouldYield, slotsOnWorkers } from '../../../src/render-node/jobs/fair-queue';

const job = (id: string, userId: string, priority = 50) => ({ id, userId, priority });
const run = (id: string, userId: string, startedAt: number, priority = 50) => ({ id, userId, priority, startedAt });

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

  it('starts the highest priority first, whatever its age, its key or its turn', () => {
    const waiting = [job('a1', 'A', 50), job('b1', 'B', 10), job('a2', 'A', 90), job('c1', 'C', 70)];
    expect(pickRenders(waiting, [job('a0', 'A')], 5, new Map([['A', 999]])).map((j) => j.id)).toEqual(['a2', 'c1', 'a1', 'b1']);
  });

  it('orders renders of one priority by fairness between keys, then by age', () => {
    const waiting = [job('a1', 'A', 80), job('a2', 'A', 80), job('b1', 'B', 80), job('c1', 'C', 20), job('b2', 'B', 80)];
    // A already runs one render: B's oldest goes first, then A's and B's alternate by turn, oldest first within a key.
    expect(pickRenders(waiting, [job('a0', 'A')], 6, new Map([['A', 5]])).map((j) => j.id)).toEqual(['b1', 'a1', 'b2', 'a2', 'c1']);
  });

  it('keeps queue order (age) between renders of one priority and one key', () => {
    const waiting = [job('a1', 'A', 60), job('a2', 'A', 60), job('a3', 'A', 60)];
    expect(pickRenders(waiting, [], 1, new Map()).map((j) => j.id)).toEqual(['a1']);
  });
});

describe('shouldYield', () => {
  const running = run('a1', 'A', 1_000);

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
    const other = run('b1', 'B', 0);
    expect(shouldYield(running, [job('b2', 'B')], [running, other], 1_000_000, 60_000)).toBe(false);
  });

  it('gives way at once, during its turn, to a waiting render of a strictly higher priority (its own key too)', () => {
    expect(shouldYield(running, [job('a2', 'A', 51)], [running], 1_000, 60_000)).toBe(true);
    expect(shouldYield(running, [job('b1', 'B', 51)], [running], 1_000, 60_000)).toBe(true);
  });

  it('keeps the slot for a waiting render of the same or a lower priority during its turn', () => {
    expect(shouldYield(running, [job('a2', 'A', 50), job('b1', 'B', 10)], [running], 1_000, 60_000)).toBe(false);
  });

  it("never gives way after its turn to another key's render of a lower priority", () => {
    expect(shouldYield(running, [job('b1', 'B', 49)], [running], 1_000_000, 60_000)).toBe(false);
  });

  it('lets only the renders a higher priority displaces give way: the lowest first, then the latest started', () => {
    const low = run('l', 'A', 5_000, 10);
    const early = run('e', 'B', 1_000, 50);
    const late = run('t', 'C', 2_000, 50);
    const all = [low, early, late];
    const one = [job('h1', 'D', 90)];
    expect(all.map((r) => shouldYield(r, one, all, 3_000, 60_000, 3))).toEqual([true, false, false]);
    const two = [job('h1', 'D', 90), job('h2', 'D', 90)];
    expect(all.map((r) => shouldYield(r, two, all, 3_000, 60_000, 3))).toEqual([true, false, true]);
  });

  it('keeps the slot while a free slot is there for the higher priority', () => {
    expect(shouldYield(running, [job('h1', 'B', 90)], [running], 1_000, 60_000, 2)).toBe(false);
  });
});

describe('slotsOnWorkers', () => {
  const held = [job('a', 'A', 50), job('b', 'B', 20), job('c', 'C', 70)];

  it('keeps the limit while a slot is free, or nothing waiting outranks the lowest render holding one', () => {
    expect(slotsOnWorkers([job('u', 'U', 90)], held.slice(0, 2), 3)).toBe(3);
    expect(slotsOnWorkers([job('w', 'W', 20), job('x', 'X', 10)], held, 3)).toBe(3);
  });

  it('makes room for every waiting render of a higher priority than the lowest holding a slot, arriving together or one after another', () => {
    expect(slotsOnWorkers([job('u', 'U', 90), job('v', 'V', 30), job('w', 'W', 20)], held, 3)).toBe(5);
    const withFirst = [...held, job('u', 'U', 90)];
    expect(slotsOnWorkers([job('v', 'V', 95)], withFirst, 3)).toBe(5);
    expect(slotsOnWorkers([], withFirst, 3)).toBe(4);
  });

  it('never goes past twice the limit', () => {
    const urgent = Array.from({ length: 10 }, (_, i) => job(`u${i}`, 'U', 99));
    expect(slotsOnWorkers(urgent, held, 3)).toBe(6);
    expect(slotsOnWorkers(urgent, [...held, ...urgent.slice(0, 3)], 3)).toBe(6);
  });
});
