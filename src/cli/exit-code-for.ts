import { CommanderError } from 'commander';
import { isAbort } from '../core/errors';
import { UsageError } from './cli-errors';
import { EXIT } from './exit-codes';

/** A process exit code. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit code for an error that ended a command. */
export function exitCodeFor(error: unknown): ExitCode {
  if (isAbort(error)) return EXIT.interrupted;
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  return EXIT.failure;
}

/**
 * The exit code of a command that handled several items: interrupted wins, then any failure, then any
 * job that ended failed or canceled, then frames missing from a folder, else ok.
 */
export function combineExitCodes(codes: readonly ExitCode[]): ExitCode {
  const order: ExitCode[] = [EXIT.interrupted, EXIT.usage, EXIT.failure, EXIT.jobFailed, EXIT.framesMissing];
  return order.find((code) => codes.includes(code)) ?? EXIT.ok;
}
