import { createInterface } from 'node:readline/promises';
import { AbortError } from '../../core/errors';

/** Streams a question is asked on. */
export interface PromptStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

/** Reads a yes/no answer: `y`/`yes` or `n`/`no` (any case); an empty answer takes `defaultYes`. */
export function parseYesNo(answer: string, defaultYes: boolean): boolean | null {
  const text = answer.trim().toLowerCase();
  if (text === '') return defaultYes;
  if (text === 'y' || text === 'yes') return true;
  if (text === 'n' || text === 'no') return false;
  return null;
}

/** Options of a question. */
export interface ConfirmOptions {
  defaultYes?: boolean;
  /** The command's interrupt signal: aborting it rejects the question. */
  signal?: AbortSignal;
  /**
   * Called on Ctrl-C at the prompt, which a terminal in raw mode does not deliver as SIGINT; default
   * `raiseInterrupt`, so it interrupts the whole command like Ctrl-C anywhere else.
   */
  onInterrupt?: () => void;
}

/**
 * Hands a Ctrl-C that readline caught to the process's SIGINT listeners (the command's interrupt), as
 * if the terminal had sent the signal.
 */
export function raiseInterrupt(): void {
  process.emit('SIGINT', 'SIGINT');
}

/**
 * Asks a yes/no question until it gets an answer. Ctrl-C interrupts the command (see `onInterrupt`) and
 * rejects with an AbortError, as does `signal`; the end of the input counts as no.
 */
export async function confirm(question: string, streams: PromptStreams, options: ConfirmOptions = {}): Promise<boolean> {
  const defaultYes = options.defaultYes ?? false;
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const rl = createInterface({ input: streams.input, output: streams.output, terminal: true });
  rl.on('SIGINT', () => {
    (options.onInterrupt ?? raiseInterrupt)();
    controller.abort();
  });
  let closed = false;
  rl.once('close', () => {
    closed = true;
    controller.abort();
  });
  try {
    for (;;) {
      let answer: string;
      try {
        answer = await rl.question(`${question} ${defaultYes ? '[Y/n]' : '[y/N]'} `, { signal: controller.signal });
      } catch (error) {
        if (closed && !options.signal?.aborted) return false;
        throw error instanceof Error && error.name === 'AbortError' ? new AbortError() : error;
      }
      const parsed = parseYesNo(answer, defaultYes);
      if (parsed !== null) return parsed;
      streams.output.write('Please answer y or n.\n');
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    rl.close();
  }
}
