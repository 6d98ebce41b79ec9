import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes';
import { ODD_JOB_ID, type OddAnswer } from '../helpers/odd-api-server';
import { runCli } from '../helpers/cli';
import { EXIT_CODES, oddServers, STACK } from './helpers/odd-servers';

const odd = oddServers();

/** Commands run as a real process, one against each kind of odd server. */
const picked: [OddAnswer, string[]][] = [
  ['other-ids', ['watch']],
  ['other-ids', ['submit', 'SCENE', '--yes', '--json']],
  ['wrong-values', ['jobs']],
  ['wrong-values', ['status', ODD_JOB_ID]],
  ['bad-urls', ['download', ODD_JOB_ID, '--dir', 'OUT']],
  ['odd-errors', ['cancel', ODD_JOB_ID]],
  ['html', ['resume', '--yes']],
];

describe('the renderdrop process against servers that answer oddly', () => {
  it('prints no stack trace and exits with one of its exit codes', async () => {
    const runs = await Promise.all(
      picked.map(async ([answer, command]) => ({ answer, command, result: await runCli(odd.argsFor(command), { env: await odd.environment(answer), timeoutMs: 60_000 }) })),
    );
    for (const { answer, command, result } of runs) {
      const what = `${answer}: renderdrop ${command.join(' ')}\n${result.stdout}${result.stderr}`;
      expect(result.stdout + result.stderr, what).not.toMatch(STACK);
      expect(result.code !== null && EXIT_CODES.has(result.code), what).toBe(true);
    }
    expect(runs.find((r) => r.command[0] === 'watch')!.result.code).toBe(EXIT.failure);
  });
});
