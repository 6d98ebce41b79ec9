import { describe, expect, it } from 'vitest';
import { bytesTimeLeft } from '../../../src/core/transfer';
import { packTransfer } from '../../../src/host/submissions/pack-transfer';
import { FakeTime } from '../../helpers/fake-time';

describe('one time left for bytes moved', () => {
  it('is the bytes left at the rate, 0 once done, unknown without a total or a rate', () => {
    expect(bytesTimeLeft({ bytes: 2500, total: 10_000, rate: 10_000, done: false })).toBe(0.75);
    expect(bytesTimeLeft({ bytes: 2500, total: null, rate: 10_000, done: false })).toBeNull();
    expect(bytesTimeLeft({ bytes: 2500, total: 10_000, rate: 0, done: false })).toBeNull();
    expect(bytesTimeLeft({ bytes: 2500, total: 10_000, rate: 0, done: true })).toBe(0);
  });

  it('packing reads its rate and time left from the same meter as uploads', () => {
    const time = new FakeTime();
    const view = packTransfer('s-1', time);
    view({ bytesDone: 0, bytesTotal: 10_000, done: false } as never);
    time.current += 500;
    const packed = view({ bytesDone: 2000, bytesTotal: 10_000, done: false } as never);
    expect(packed).toMatchObject({ id: 'pack:s-1', kind: 'pack', bytes: 2000, total: 10_000, rate: 4000, etaSeconds: 2 });
    expect(view({ bytesDone: 10_000, bytesTotal: 10_000, done: true } as never)).toMatchObject({ etaSeconds: 0, done: true });
  });
});
