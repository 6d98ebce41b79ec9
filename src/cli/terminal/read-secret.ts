import { AbortError } from '../../core/errors';

/** A terminal input that can switch raw mode. */
export interface SecretInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
}

/**
 * Reads a secret: on a terminal with a prompt and nothing echoed (Ctrl-C rejects with an
 * AbortError), otherwise the first non-empty line of the input. Returns the text trimmed, possibly empty.
 */
export async function readSecret(input: SecretInput, output: NodeJS.WritableStream, prompt: string): Promise<string> {
  if (input.isTTY && typeof input.setRawMode === 'function') return readHidden(input, output, prompt);
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return firstLine(Buffer.concat(chunks).toString('utf8'));
}

/** The first non-empty line of `text`, trimmed (empty when there is none). */
export function firstLine(text: string): string {
  return text.split(/\r?\n/).map((line) => line.trim()).find((line) => line !== '') ?? '';
}

function readHidden(input: SecretInput, output: NodeJS.WritableStream, prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let value = '';
    output.write(prompt);
    input.setRawMode!(true);
    input.resume();
    const done = (result: { value: string } | { error: Error }) => {
      input.removeListener('data', onData);
      input.setRawMode!(false);
      input.pause();
      output.write('\n');
      if ('value' in result) resolve(result.value.trim());
      else reject(result.error);
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString()) {
        if (char === '\u0003') return done({ error: new AbortError('Login stopped.') });
        if (char === '\r' || char === '\n' || char === '\u0004') return done({ value });
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else if (char >= ' ') value += char;
      }
    };
    input.on('data', onData);
  });
}
