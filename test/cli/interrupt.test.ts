import { afterEach, describe, expect, it, vi } from 'vitest';
import { listenForInterrupt } from '../../src/cli/terminal/interrupt';

describe('listenForInterrupt', () => {
  const disposers: (() => void)[] = [];
  afterEach(() => {
    for (const d of disposers.splice(0)) d();
    vi.restoreAllMocks();
  });

  it('aborts on the first signal, ignores the same signal raised again at once, and exits on a real second one', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    let t = 1_000;
    const seen: string[] = [];
    const interrupt = listenForInterrupt(() => seen.push('interrupted'), 250, () => t);
    disposers.push(interrupt.dispose);

    process.emit('SIGINT', 'SIGINT');
    expect(interrupt.signal.aborted).toBe(true);
    expect(seen).toEqual(['interrupted']);

    t += 2;
    process.emit('SIGINT', 'SIGINT');
    expect(exit).not.toHaveBeenCalled();

    t += 1_000;
    process.emit('SIGINT', 'SIGINT');
    expect(exit).toHaveBeenCalledWith(130);
    expect(seen).toEqual(['interrupted']);
  });
});
