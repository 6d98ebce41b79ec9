import { AbortError, AuthError, isAbort, RenderdropError, toUserMessage } from '../../core/errors';

/** What the command line adds to a rejected key: the app says the same in its own Settings terms. */
const LOGIN_HINT = 'Store a new key with: renderdrop login';
import { CommandFailedError, UsageError } from '../cli-errors';
import type { CliDeps } from '../cli-deps';
import { exitCodeFor, type ExitCode } from '../exit-code-for';
import { safeText } from '../terminal';
import type { CliContext } from '../context';

/** A command body: gets the shared context and the command's arguments, returns its exit code. */
export type CommandBody<A extends unknown[]> = (ctx: CliContext, ...args: A) => Promise<ExitCode | void>;

/** The message a person sees for an error that ended a command, safe to print. */
export function errorMessage(error: unknown): string {
  return safeText(rawMessage(error), { multiline: true });
}

function rawMessage(error: unknown): string {
  if (isAbort(error)) return error instanceof AbortError ? error.message : 'Stopped on request.';
  if (error instanceof AuthError) return `${error.message} ${LOGIN_HINT}`;
  if (error instanceof RenderdropError || error instanceof UsageError || error instanceof CommandFailedError) return error.message;
  return toUserMessage(error);
}

/**
 * Wraps a command body for commander: builds the context from `deps`, reports the outcome as the
 * exit code and prints an error as one line a person can act on.
 */
export function cliAction<A extends unknown[]>(deps: CliDeps, body: CommandBody<A>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const { CliContext } = await import('../context');
    const ctx = new CliContext(deps);
    try {
      deps.setExitCode((await body(ctx, ...args)) ?? 0);
    } catch (error) {
      ctx.io.stderr.write(`renderdrop: ${errorMessage(error)}\n`);
      deps.setExitCode(exitCodeFor(error));
    }
  };
}

/**
 * A command body that loads its module when the command runs, so that building the command tree (and
 * `--help`, `--version`) does not load what the command uses.
 */
export function lazyBody<A extends unknown[]>(load: () => Promise<CommandBody<A>>): CommandBody<A> {
  return async (ctx, ...args) => (await load())(ctx, ...args);
}
