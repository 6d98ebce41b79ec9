import { describe, expect, it } from 'vitest';
import { ProgressMeter } from '../../../src/core/transfer/progress-meter';
import { FakeTime } from '../../helpers/fake-time';

describe('ProgressMeter', () => {
  it('reports at most once per interval, with rate and ETA, and always a final event', () => {
    const time = new FakeTime();
    const meter = new ProgressMeter({ clock: time, total: 10_000, intervalMs: 250 });
    expect(meter.add(1000)).toBeNull();
    time.current += 250;
    expect(meter.add(1500)).toEqual({ bytes: 2500, total: 10_000, rate: 10_000, etaSeconds: 0.75, done: false });
    time.current += 100;
    expect(meter.add(1000)).toBeNull();
    time.current += 150;
    const third = meter.add(1500)!;
    expect(third.rate).toBeCloseTo(0.3 * 10_000 + 0.7 * 10_000);
    time.current += 10;
    expect(meter.finish()).toMatchObject({ bytes: 5000, done: true, etaSeconds: 0 });
  });

  it('smooths a sudden change of rate', () => {
    const time = new FakeTime();
    const meter = new ProgressMeter({ clock: time, total: null, intervalMs: 100, smoothing: 0.5 });
    time.current += 100;
    meter.add(1000);
    time.current += 100;
    const event = meter.add(3000)!;
    expect(event.rate).toBe(20_000);
    expect(event.etaSeconds).toBeNull();
  });

  it('starts over on reset', () => {
    const time = new FakeTime();
    const meter = new ProgressMeter({ clock: time, total: 100 });
    meter.add(50);
    meter.reset();
    expect(meter.bytes).toBe(0);
  });
});
