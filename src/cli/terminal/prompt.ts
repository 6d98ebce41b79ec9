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
  const answer = await askUntilAnswered(`${question} ${defaultYes ? '[Y/n]' : '[y/N]'} `, (text) => parseYesNo(text, defaultYes), 'Please answer y or n.', streams, options);
  return answer ?? false;
}

/** Reads a choice among `choices`: its number in the list (from 1) or its exact text; null otherwise. */
export function parseChoice(answer: string, choices: readonly string[]): string | null {
  const text = answer.trim();
  if (/^\d+$/.test(text)) return choices[Number(text) - 1] ?? null;
  return choices.includes(text) ? text : null;
}

/**
 * Asks which of `choices` to take, listing them numbered, until it gets one (its number or its text).
 * Ctrl-C and `signal` reject with an AbortError; the end of the input answers null.
 */
export async function choose(question: string, choices: readonly string[], streams: PromptStreams, options: Omit<ConfirmOptions, 'defaultYes'> = {}): Promise<string | null> {
  streams.output.write(`${question}\n${choices.map((choice, i) => `  ${i + 1}) ${choice}`).join('\n')}\n`);
  return askUntilAnswered(`Number or name (1-${choices.length}): `, (text) => parseChoice(text, choices), `Please answer with a number from 1 to ${choices.length}.`, streams, options);
}

/**
 * Shows `prompt` until `parse` accepts the answer (saying `retry` after each answer it refuses).
 * Resolves null at the end of the input; Ctrl-C and `signal` reject with an AbortError.
 */
async function askUntilAnswered<T>(prompt: string, parse: (answer: string) => T | null, retry: string, streams: PromptStreams, options: Omit<ConfirmOptions, 'defaultYes'>): Promise<T | null> {
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
        answer = await rl.question(prompt, { signal: controller.signal });
      } catch (error) {
        if (closed && !options.signal?.aborted) return null;
        throw error instanceof Error && error.name === 'AbortError' ? new AbortError() : error;
      }
      const parsed = parse(answer);
      if (parsed !== null) return parsed;
      streams.output.write(`${retry}\n`);
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    rl.close();
  }
}
