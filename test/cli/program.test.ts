import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/index';
import { EXIT } from '../../src/cli/exit-codes';

let written: string;

beforeEach(() => {
  written = '';
  const capture = (chunk: string | Uint8Array) => {
    written += String(chunk);
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  process.exitCode = undefined;
});
afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

const run = (...args: string[]) => main(['node', 'renderdrop', ...args]);

describe('renderdrop exit codes of the command line itself', () => {
  it('exits with the usage code when no command is given, after showing the help', async () => {
    expect(await run()).toBe(EXIT.usage);
    expect(written).toContain('Usage: renderdrop');
  });

  it('exits with the usage code for a command group without its subcommand', async () => {
    expect(await run('profile')).toBe(EXIT.usage);
    expect(written).toContain('Usage: renderdrop profile');
  });

  it('exits 0 for --help, help and --version', async () => {
    expect(await run('--help')).toBe(EXIT.ok);
    expect(await run('help')).toBe(EXIT.ok);
    expect(await run('profile', '--help')).toBe(EXIT.ok);
    expect(await run('--version')).toBe(EXIT.ok);
  });

  it('exits with the usage code for an unknown command or option', async () => {
    expect(await run('frobnicate')).toBe(EXIT.usage);
    expect(await run('jobs', '--frob')).toBe(EXIT.usage);
  });
});
