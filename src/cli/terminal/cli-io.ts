/** A stream the CLI writes to, with what a terminal tells about itself. */
export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** The process edges a command uses, passed in so tests and other hosts can replace them. */
export interface CliIo {
  stdout: OutputStream & NodeJS.WritableStream;
  stderr: OutputStream & NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  env: Record<string, string | undefined>;
}

/** The real process streams and environment. */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}
