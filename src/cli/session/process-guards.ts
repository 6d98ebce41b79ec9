import { EXIT } from '../exit-codes';
import { errorMessage } from './cli-action';

/** The part of a Node.js process the guards use. */
export interface GuardedProcess {
  on(event: 'uncaughtException' | 'unhandledRejection' | 'beforeExit', listener: (value: unknown) => void): unknown;
  exit(code: number): void;
  exitCode?: number | string | null | undefined;
  stderr: { write(text: string): unknown };
}

const UNFINISHED =
  'The command stopped without finishing: it was waiting for something that can no longer happen. This is a fault of Renderdrop; ' +
  'run the command again, and `renderdrop resume` continues an unfinished submission.';

/**
 * Runs a command so that however it ends, a person sees one line on stderr and the process an exit
 * code, never a stack trace: an exception or rejection nothing caught ends it with exit 1 and the
 * error's message, and a command whose last pending work vanished (the process would otherwise exit
 * 0 in silence) ends with exit 1 and says so.
 */
export function runGuarded(proc: GuardedProcess, command: () => Promise<number>): void {
  let settled = false;
  const fail = (error: unknown) => {
    settled = true;
    proc.stderr.write(`renderdrop: ${errorMessage(error)}\n`);
    proc.exit(EXIT.failure);
  };
  proc.on('uncaughtException', fail);
  proc.on('unhandledRejection', fail);
  proc.on('beforeExit', () => {
    if (settled) return;
    settled = true;
    proc.stderr.write(`renderdrop: ${UNFINISHED}\n`);
    proc.exitCode = EXIT.failure;
  });
  command().then(
    (code) => {
      settled = true;
      proc.exitCode = code;
    },
    (error: unknown) => {
      settled = true;
      proc.stderr.write(`renderdrop: ${errorMessage(error)}\n`);
      proc.exitCode = EXIT.failure;
    },
  );
}
