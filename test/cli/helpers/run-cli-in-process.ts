import { PassThrough } from 'node:stream';
import { main } from '../../../src/cli/index';
import { testDeps } from './test-deps';

/** What one in-process run of the CLI ended with. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `renderdrop <args>` in this process through `main`, with `env` as its whole environment, `input`
 * on its stdin (not a terminal) and an in-memory keychain; resolves with the exit code and the output.
 */
export async function runCliInProcess(args: string[], options: { env?: Record<string, string | undefined>; input?: string } = {}): Promise<CliRun> {
  const t = testDeps(options.env ?? {}, { stdin: new PassThrough().end(options.input ?? '') });
  const code = await main(['node', 'renderdrop', ...args], t.deps);
  return { code, stdout: t.stdout(), stderr: t.stderr() };
}
