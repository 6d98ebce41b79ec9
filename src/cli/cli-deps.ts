import type { SecretStore } from '../core/secrets';
import type { ExitCode } from './exit-code-for';
import { processIo, type CliIo } from './terminal/cli-io';
import { listenForInterrupt, type Interrupt } from './terminal/interrupt';
import { terminalPrompt, type CliPrompt } from './terminal/terminal-prompt';

/** What the CLI takes from its process, passed in so tests and other hosts replace it. */
export interface CliDeps {
  /** Output streams, input and environment. */
  io: CliIo;
  prompt: CliPrompt;
  /** Turns Ctrl-C and SIGTERM into an abort signal while a command runs. */
  listenForInterrupt: () => Interrupt;
  /** The keychain; default: the system's, opened when first used. */
  secrets?: SecretStore;
  /** Told the exit code of the command that ran. */
  setExitCode: (code: ExitCode) => void;
}

/**
 * The dependencies of one run: `overrides` where given, else the real process (its streams and
 * environment, questions on its terminal, its signals); the exit code goes to `setExitCode`.
 */
export function cliDeps(overrides: Partial<Omit<CliDeps, 'setExitCode'>>, setExitCode: (code: ExitCode) => void): CliDeps {
  const io = overrides.io ?? processIo();
  return {
    io,
    prompt: overrides.prompt ?? terminalPrompt(io),
    listenForInterrupt: overrides.listenForInterrupt ?? (() => listenForInterrupt()),
    ...(overrides.secrets ? { secrets: overrides.secrets } : {}),
    setExitCode,
  };
}
