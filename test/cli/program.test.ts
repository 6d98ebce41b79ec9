import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index';
import { EXIT } from '../../src/cli/exit-codes';
import { testDeps } from './helpers/test-deps';

async function run(...args: string[]) {
  const t = testDeps();
  const code = await main(['node', 'renderdrop', ...args], t.deps);
  return { code, written: t.stdout() + t.stderr() };
}

describe('renderdrop exit codes of the command line itself', () => {
  it('exits with the usage code when no command is given, after showing the help', async () => {
    const { code, written } = await run();
    expect(code).toBe(EXIT.usage);
    expect(written).toContain('Usage: renderdrop');
  });

  it('exits with the usage code for a command group without its subcommand', async () => {
    const { code, written } = await run('profile');
    expect(code).toBe(EXIT.usage);
    expect(written).toContain('Usage: renderdrop profile');
  });

  it('exits 0 for --help, help and --version', async () => {
    expect((await run('--help')).code).toBe(EXIT.ok);
    expect((await run('help')).code).toBe(EXIT.ok);
    expect((await run('profile', '--help')).code).toBe(EXIT.ok);
    expect((await run('--version')).code).toBe(EXIT.ok);
  });

  it('exits with the usage code for an unknown command or option', async () => {
    expect((await run('frobnicate')).code).toBe(EXIT.usage);
    expect((await run('jobs', '--frob')).code).toBe(EXIT.usage);
  });
});

describe('a wrong command line', () => {
  it('prints one line and the usage of the command, not its whole help', async () => {
    const { code, written } = await run('submit', 'shot.blend', '--samples', 'abc');
    expect(code).toBe(EXIT.usage);
    expect(written.trimEnd().split('\n')).toEqual([
      'renderdrop: option \'--samples <n>\' argument \'abc\' is invalid. --samples takes a whole number from 1 to 1000000, not "abc".',
      'Usage: renderdrop submit [options] <files...>',
      'See `renderdrop submit --help` for every option.',
    ]);
  });

  it('names the nested command whose line was wrong', async () => {
    const { code, written } = await run('jobs', '--frob');
    expect(code).toBe(EXIT.usage);
    expect(written).toContain("renderdrop: unknown option '--frob'\nUsage: renderdrop jobs [options]\n");
    expect(written).not.toContain('Options:');
  });

  it('gives verify the same one line and usage for an unknown option or a missing job id', async () => {
    const bad = await run('verify', 'abcd1234', '--fixx');
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.written.trimEnd().split('\n')).toEqual([
      "renderdrop: unknown option '--fixx' (did you mean --fix?)",
      'Usage: renderdrop verify [options] <id>',
      'See `renderdrop verify --help` for every option.',
    ]);
    const missing = await run('verify');
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.written).toContain("renderdrop: missing required argument 'id'\nUsage: renderdrop verify [options] <id>\n");
  });
});
