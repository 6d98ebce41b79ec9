import { StringDecoder } from 'node:string_decoder';

/** Feeds chunks of a byte stream in and calls back once per complete line (without its `\n`/`\r\n`). */
export interface LineSplitter {
  push(chunk: Buffer | string): void;
  /** Emit whatever is left after the last newline. */
  end(): void;
}

/** A {@link LineSplitter} that copes with lines and multi-byte characters split across chunks. */
export function createLineSplitter(onLine: (line: string) => void): LineSplitter {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const drain = () => {
    let index = pending.indexOf('\n');
    while (index !== -1) {
      const line = pending.slice(0, index);
      pending = pending.slice(index + 1);
      onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
      index = pending.indexOf('\n');
    }
  };
  return {
    push(chunk) {
      pending += typeof chunk === 'string' ? chunk : decoder.write(chunk);
      drain();
    },
    end() {
      pending += decoder.end();
      drain();
      if (pending !== '') onLine(pending.endsWith('\r') ? pending.slice(0, -1) : pending);
      pending = '';
    },
  };
}
