import type { CliIo } from './cli-io';
import { choose, confirm, type ConfirmOptions } from './prompt';
import { readSecret } from './read-secret';

/** Asks a yes/no question; Ctrl-C or `signal` rejects with an AbortError. */
export type Confirm = (question: string, options?: Pick<ConfirmOptions, 'defaultYes' | 'signal'>) => Promise<boolean>;

/** Asks which of `choices` to take; null when the input ended. Ctrl-C or `signal` rejects with an AbortError. */
export type Choose = (question: string, choices: readonly string[], options?: Pick<ConfirmOptions, 'signal'>) => Promise<string | null>;

/** How the CLI asks a person something. */
export interface CliPrompt {
  confirm: Confirm;
  choose: Choose;
  /** Reads a secret without echoing it (or the first line of piped input). */
  secret(label: string): Promise<string>;
}

/** Questions on the terminal: asked on stderr, answered on stdin. */
export function terminalPrompt(io: Pick<CliIo, 'stdin' | 'stderr'>): CliPrompt {
  return {
    confirm: (question, options = {}) => confirm(question, { input: io.stdin, output: io.stderr }, options),
    choose: (question, choices, options = {}) => choose(question, choices, { input: io.stdin, output: io.stderr }, options),
    secret: (label) => readSecret(io.stdin, io.stderr, label),
  };
}
