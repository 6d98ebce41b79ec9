import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { listenForInterrupt } from '../../src/cli/terminal/interrupt';
import { confirm } from '../../src/cli/terminal/prompt';
import { AbortError } from '../../src/core/errors';

function terminal() {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  const output = new PassThrough();
  output.resume();
  return { input, output };
}

describe('confirm', () => {
  it('takes y and n, and the default on an empty answer', async () => {
    const streams = terminal();
    const yes = confirm('Render?', streams);
    streams.input.write('y\r');
    expect(await yes).toBe(true);
    const empty = confirm('Continue?', streams, { defaultYes: true });
    streams.input.write('\r');
    expect(await empty).toBe(true);
  });

  it('passes Ctrl-C on to the command instead of only dropping the question', async () => {
    const streams = terminal();
    const command = new AbortController();
    const asked = confirm('Render?', streams, { signal: command.signal, onInterrupt: () => command.abort() });
    streams.input.write('\x03');
    await expect(asked).rejects.toBeInstanceOf(AbortError);
    expect(command.signal.aborted).toBe(true);
  });

  it('by default hands Ctrl-C to the interrupt listener of the command, like a SIGINT', async () => {
    const others = process.listeners('SIGINT');
    process.removeAllListeners('SIGINT');
    const interrupt = listenForInterrupt();
    try {
      const streams = terminal();
      const asked = confirm('Render?', streams, { signal: interrupt.signal });
      streams.input.write('\x03');
      await expect(asked).rejects.toBeInstanceOf(AbortError);
      expect(interrupt.signal.aborted).toBe(true);
    } finally {
      interrupt.dispose();
      others.forEach((listener) => process.on('SIGINT', listener));
    }
  });

  it('stops the question with an AbortError when nothing listens for Ctrl-C', async () => {
    const streams = terminal();
    const asked = confirm('Render?', streams, { onInterrupt: () => undefined });
    streams.input.write('\x03');
    await expect(asked).rejects.toBeInstanceOf(AbortError);
  });
});
