import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { DiskRoom, type ChunkIntakeSwitch, type DiskStatusSink } from '../../../src/render-node/worker/disk-room';

const MiB = 1024 * 1024;

function fixture(freeAtStart: number) {
  let free = freeAtStart;
  const calls: string[] = [];
  const sink: DiskStatusSink & { reports: (string | null)[] } = {
    diskFull: null,
    reports: [],
    async report() {
      this.reports.push(this.diskFull);
    },
  };
  const intake: ChunkIntakeSwitch = {
    async pause(doNotWaitActive) {
      calls.push(`pause(${String(doNotWaitActive)})`);
    },
    resume() {
      calls.push('resume');
    },
  };
  const room = new DiskRoom('/nowhere', sink, pino({ level: 'silent' }), { freeBytes: async () => free, checkMs: 3_600_000 });
  room.attach(intake);
  return { room, sink, calls, setFree: (bytes: number) => (free = bytes) };
}

describe("a worker's disk room", () => {
  it('stops taking chunks when the disk fills, says why, and takes them again once it has room', async () => {
    const { room, sink, calls, setFree } = fixture(2 * MiB);
    expect(room.full).toBe(false);
    await room.markFull('frame 3 was cut short while being written');
    expect(room.full).toBe(true);
    expect(calls).toEqual(['pause(true)']);
    expect(sink.diskFull).toBe('Disk full: frame 3 was cut short while being written, and 2.1 MB is free. It takes no chunks until it has 69.2 MB free.');
    expect(sink.reports.at(-1)).toBe(sink.diskFull);

    setFree(40 * MiB);
    await room.check();
    expect(room.full).toBe(true);
    expect(calls).toEqual(['pause(true)']);

    setFree(80 * MiB);
    await room.check();
    expect(room.full).toBe(false);
    expect(sink.diskFull).toBeNull();
    expect(sink.reports.at(-1)).toBeNull();
    expect(calls).toEqual(['pause(true)', 'resume']);
    room.stop();
  });

  it('wants at least double the space it had when a frame bigger than the free space did not fit', async () => {
    const { room, setFree } = fixture(500 * MiB);
    await room.markFull('frame 1 was cut short while being written');
    setFree(900 * MiB);
    await room.check();
    expect(room.full).toBe(true);
    setFree(1000 * MiB);
    await room.check();
    expect(room.full).toBe(false);
    room.stop();
  });
});
