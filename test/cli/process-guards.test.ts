import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes';
import { runGuarded, type GuardedProcess } from '../../src/cli/session/process-guards';

/** A process stand-in: its events are emitted by the test, its output and exit are recorded. */
function fakeProcess() {
  const events = new EventEmitter();
  const state = { written: '', exited: null as number | null };
  const proc: GuardedProcess & { emit: (event: string, value?: unknown) => boolean } = {
    on: (event, listener) => events.on(event, listener),
    emit: (event, value) => events.emit(event, value),
    exit: (code) => void (state.exited = code),
    exitCode: undefined,
    stderr: { write: (text: string) => (state.written += text) },
  };
  return { proc, state };
}

const noStack = /\n\s+at |\.ts:\d+:\d+/;

describe('a command run under the process guards', () => {
  it('sets the exit code the command returned', async () => {
    const { proc, state } = fakeProcess();
    runGuarded(proc, async () => EXIT.jobFailed);
    await new Promise((r) => setImmediate(r));
    expect(proc.exitCode).toBe(EXIT.jobFailed);
    expect(state.written).toBe('');
  });

  it('ends an exception nothing caught with one line and exit 1', () => {
    const { proc, state } = fakeProcess();
    runGuarded(proc, () => new Promise(() => undefined));
    proc.emit('uncaughtException', new TypeError("Cannot set properties of undefined (setting 'job')"));
    expect(state.exited).toBe(EXIT.failure);
    expect(state.written).toBe("renderdrop: Unexpected error: Cannot set properties of undefined (setting 'job')\n");
    expect(state.written).not.toMatch(noStack);
  });

  it('ends a rejection nothing handled the same way', () => {
    const { proc, state } = fakeProcess();
    runGuarded(proc, () => new Promise(() => undefined));
    proc.emit('unhandledRejection', new Error('lost'));
    expect(state.exited).toBe(EXIT.failure);
    expect(state.written.split('\n')).toHaveLength(2);
  });

  it('says so and exits 1 when the process would end while the command is still waiting', () => {
    const { proc, state } = fakeProcess();
    runGuarded(proc, () => new Promise(() => undefined));
    proc.emit('beforeExit', 0);
    expect(proc.exitCode).toBe(EXIT.failure);
    expect(state.written).toContain('stopped without finishing');
  });

  it('stays silent at the end of a command that finished', async () => {
    const { proc, state } = fakeProcess();
    runGuarded(proc, async () => EXIT.ok);
    await new Promise((r) => setImmediate(r));
    proc.emit('beforeExit', 0);
    expect(proc.exitCode).toBe(EXIT.ok);
    expect(state.written).toBe('');
  });
});
