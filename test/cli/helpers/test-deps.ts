import { PassThrough, Writable } from 'node:stream';
import type { CliDeps } from '../../../src/cli/cli-deps';
import type { CliIo } from '../../../src/cli/terminal/cli-io';
import { terminalPrompt } from '../../../src/cli/terminal/terminal-prompt';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';

/** CLI dependencies for a test: output collected as text, the given environment, an in-memory keychain, Ctrl-C by `interrupt()`. */
export interface TestDeps {
  deps: Omit<CliDeps, 'setExitCode'>;
  stdout: () => string;
  stderr: () => string;
  secrets: MemorySecretStore;
  /** Acts as Ctrl-C for the command running. */
  interrupt: () => void;
}

/** Builds the dependencies; `stdin` is empty and not a terminal unless given. */
export function testDeps(env: Record<string, string | undefined> = {}, options: { stdin?: CliIo['stdin'] } = {}): TestDeps {
  let out = '';
  let err = '';
  const stdout = collector((text) => (out += text));
  const stderr = collector((text) => (err += text));
  const stdin = options.stdin ?? new PassThrough().end();
  const io: CliIo = { stdout, stderr, stdin, env };
  const secrets = new MemorySecretStore();
  const controllers = new Set<AbortController>();
  return {
    deps: {
      io,
      prompt: terminalPrompt(io),
      secrets,
      listenForInterrupt: () => {
        const controller = new AbortController();
        controllers.add(controller);
        return { signal: controller.signal, dispose: () => controllers.delete(controller) };
      },
    },
    stdout: () => out,
    stderr: () => err,
    secrets,
    interrupt: () => controllers.forEach((c) => c.abort()),
  };
}

/** A stream that hands every write to `onText` at once (not a terminal). */
function collector(onText: (text: string) => void): Writable & { isTTY: false } {
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      onText(String(chunk));
      done();
    },
  });
  return Object.assign(stream, { isTTY: false as const });
}
